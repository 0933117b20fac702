"""Where a board names its CSS classes: the class selectors of a ``board.css`` and, in a ``board.js``, the class
lists it writes (``class:`` attributes, ``className =``, ``classList`` calls) and the selectors it queries
(``querySelector``, ``closest``, ``matches``), each with its place in the file (tests/test_board_class_names.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import takewhile

# A class written by a template literal is cut where an expression starts or ends (``cc-seat-${seat}``): the
# static part is still checked, as a fragment.
HOLE = "\0"


@dataclass(frozen=True)
class ClassName:
    start: int  # offsets in the file of the name's static text
    end: int
    text: str
    fragment: bool  # touches a ``${…}`` of a template literal


CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)
CSS_PRELUDE = re.compile(r"([^{}]*)\{")
CSS_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")


def css_class_names(source: str) -> list[ClassName]:
    """Every class named by a selector of the stylesheet (at-rules' preludes have none)."""
    text = CSS_COMMENT.sub(lambda match: " " * len(match.group()), source)
    found = []
    for prelude in CSS_PRELUDE.finditer(text):
        if prelude.group(1).strip().startswith("@"):
            continue
        for name in CSS_CLASS.finditer(prelude.group(1)):
            start = prelude.start(1) + name.start(1)
            found.append(ClassName(start, start + len(name.group(1)), name.group(1), False))
    return found


JS_CLASS_LIST = re.compile(r"\bclass:\s*|\bclassName\s*=\s*|\bclassList\.(?:add|remove|toggle|contains|replace)\(")
JS_SELECTOR = re.compile(r"\b(?:querySelector|querySelectorAll|closest|matches)\(")
OPENING = {"(": ")", "[": "]", "{": "}"}


def _skip_string(source: str, i: int) -> int:
    """The index after the quoted string starting at ``i``."""
    quote = source[i]
    i += 1
    while source[i] != quote:
        i += 2 if source[i] == "\\" else 1
    return i + 1


def _template(source: str, i: int, pieces: list) -> int:
    """Collect a template literal's static runs (a hole for each expression) and the strings inside its
    expressions; returns the index after its closing backtick."""
    i += 1
    run = []
    while source[i] != "`":
        if source.startswith("${", i):
            run.append((i, HOLE))
            i = _expression(source, i + 2, "}", pieces)
            run.append((i - 1, HOLE))
        else:
            run.append((i, source[i]))
            i += 2 if source[i] == "\\" else 1
    pieces.append(run)
    return i + 1


def _expression(source: str, i: int, closer: str, pieces: list) -> int:
    """Collect the string literals of an expression up to one of the ``closer`` characters at depth 0; returns the
    index after it."""
    depth = []
    while True:
        char = source[i]
        if char in "\"'":
            end = _skip_string(source, i)
            pieces.append([(k, source[k]) for k in range(i + 1, end - 1)])
            i = end
            continue
        if char == "`":
            i = _template(source, i, pieces)
            continue
        if not depth and char in closer:
            return i + 1
        if char in OPENING:
            depth.append(OPENING[char])
        elif depth and char == depth[-1]:
            depth.pop()
        i += 1


def _words(run: list[tuple[int, str]]) -> list[ClassName]:
    """Split a string's characters (with their offsets) into whitespace-separated names."""
    names, word = [], []
    for position, char in [*run, (-1, " ")]:
        if not char.isspace():
            word.append((position, char))
            continue
        static = [(k, c) for k, c in word if c != HOLE]
        if static:
            fragment = len(static) != len(word)
            # a fragment is checked on its static text up to its first hole (``cc-seat-`` of ``cc-seat-${seat}``)
            head = list(takewhile(lambda item: item[1] != HOLE, word)) if fragment else static
            static = head or static
            names.append(ClassName(static[0][0], static[-1][0] + 1, "".join(c for _k, c in static), fragment))
        word = []
    return names


def js_class_names(source: str) -> list[ClassName]:
    """Every class a board's script writes into a class list or looks up with a selector."""
    found = []
    for context in JS_CLASS_LIST.finditer(source):
        pieces: list = []
        closer = ")" if context.group().endswith("(") else ";\n" if "className" in context.group() else ",})"
        _expression(source, context.end(), closer, pieces)
        for run in pieces:
            found.extend(name for name in _words(run) if name.text)
    for context in JS_SELECTOR.finditer(source):
        pieces = []
        _expression(source, context.end(), ")", pieces)
        for run in pieces:
            text = "".join(c for _k, c in run)
            text = re.sub(r"\[[^\]]*\]", lambda match: " " * len(match.group()), text)  # attribute values
            for name in CSS_CLASS.finditer(text):
                start = run[name.start(1)][0]
                fragment = HOLE in name.group(1)
                words = name.group(1).split(HOLE)[0]
                found.append(ClassName(start, start + len(words), words, fragment))
    return sorted(set(found), key=lambda name: name.start)
