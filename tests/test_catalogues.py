"""Every translation catalogue is complete and current: Django's ``makemessages`` is run, as docs/languages.md says, on a
copy of the site's and each game's catalogues, and the result must hold a French and an Italian translation for
every string marked in the code, none fuzzy, and no entry left over from a string the code no longer has. A string
marked for translation but never added to a catalogue, or a catalogue not refreshed after a change, fails here.

The copy is a folder of symbolic links to the sources with the catalogues copied beside them, so the checkout's own
files are never written."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings

from tests.conftest import GAME_KEYS
from turnengine import game_app

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ["fr", "it"]

# The site's catalogues hold the strings of platform/ and templates/ (Python and templates) and static/ (scripts);
# each game's, the strings of its own folder.
SITE_SOURCES = ["platform", "templates", "static"]


def _catalogue_folders():
    folders = {"site": (ROOT, SITE_SOURCES)}
    for key in GAME_KEYS:
        folder = Path(game_app.config_of(key).path)
        folders[key] = (folder, [entry.name for entry in folder.iterdir() if entry.name != "locale"])
    return folders


FOLDERS = _catalogue_folders()


def _refreshed(tmp_path, monkeypatch, folder: Path, sources: list[str], domain: str) -> list[Path]:
    """The folder's catalogues of ``domain`` after ``makemessages``, made on a copy; [] if it has none."""
    committed = [folder / "locale" / language / "LC_MESSAGES" / f"{domain}.po" for language in LANGUAGES]
    if not any(path.exists() for path in committed):
        return []
    for name in sources:
        (tmp_path / name).symlink_to(folder / name)
    for path in committed:
        copy = tmp_path / path.relative_to(folder)
        copy.parent.mkdir(parents=True)
        if path.exists():
            shutil.copy(path, copy)
    monkeypatch.chdir(tmp_path)
    with override_settings(LOCALE_PATHS=[tmp_path / "locale"]):
        call_command(
            "makemessages",
            locale=LANGUAGES,
            domain=domain,
            symlinks=True,
            ignore_patterns=["node_modules/*", "*.min.js"],
            verbosity=0,
        )
    return [tmp_path / path.relative_to(folder) for path in committed]


def _msgids(path: Path, *flags: str) -> list[str]:
    """The msgids ``msgattrib`` (GNU gettext, which makemessages needs anyway) selects with ``flags``."""
    out = subprocess.run(["msgattrib", *flags, str(path)], check=True, capture_output=True, text=True).stdout
    return [
        line for line in out.splitlines() if line.startswith(("msgid ", "#~ msgid ")) and line != 'msgid ""'
    ]


@pytest.mark.parametrize("domain", ["django", "djangojs"])
@pytest.mark.parametrize("name", FOLDERS)
def test_every_marked_string_is_translated_and_every_entry_is_still_used(tmp_path, monkeypatch, name, domain):
    folder, sources = FOLDERS[name]
    catalogues = _refreshed(tmp_path, monkeypatch, folder, sources, domain)
    if domain == "django":
        assert catalogues, f"{name} has no catalogue"
    for path in catalogues:
        where = f"{name}: {path.relative_to(tmp_path)}"
        assert not _msgids(path, "--untranslated", "--no-obsolete"), f"{where}: strings with no translation"
        assert not _msgids(path, "--only-fuzzy", "--no-obsolete"), f"{where}: fuzzy translations"
        assert not _msgids(path, "--only-obsolete"), f"{where}: entries of strings the code no longer has"
