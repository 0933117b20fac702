"""Read queries the ORM writes once, then runs again with new values: for the few reads every websocket connection
makes, where building and compiling a queryset costs ten times what running its SQL does (measured: the match
socket's table lookup, 1.4 ms of CPU through the ORM against 0.13 ms for the same SQL run again; bench/RESULTS.md).

``Compiled(build, name=type, ...)`` takes a function that builds a ``values_list`` queryset from keyword arguments,
the query's varying values. On the first call on a database connection it is built once with stand-ins (values
no row holds), compiled by the ORM, and the stand-ins' places among the compiled parameters are remembered; every
call then runs that SQL with the real values in those places, and converts the columns with the converters the
ORM's compiler chose (a boolean read from SQLite is a ``bool``, as the ORM would give it). A varying value must
reach the SQL as it is (an exact lookup or a comparison), which the first compile checks: one the ORM transforms
(``__in``, ``__contains``) is refused there. Times belong in the SQL (``Now()``), not in the values.

:func:`row_reader` reads a model's row by primary key that way, as a model instance.

``tests/web/test_compiled.py`` pins the compiler's parts this uses (``as_sql``, ``select``, ``get_converters``,
``apply_converters``) against the ORM's own answers on both databases.
"""

from __future__ import annotations

from collections.abc import Callable
from weakref import WeakKeyDictionary

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet

_INT_STAND_IN = 2_100_000_000  # inside every integer column's range, far above any id this site will reach
_STR_STAND_IN = "\ue000compiled-"  # a private-use character: no name, key or pool holds it
_BIGINT = (-(2**63), 2**63 - 1)


class Compiled:
    def __init__(self, build: Callable[..., QuerySet], **kinds: type) -> None:
        if any(kind not in (int, str) for kind in kinds.values()):
            raise TypeError("a compiled query's values are int or str")
        self.build, self.kinds = build, kinds
        self._by_connection: WeakKeyDictionary = WeakKeyDictionary()

    def rows(self, **values) -> list[tuple]:
        """The rows, as ``values_list`` would give them, for these values."""
        if any(isinstance(value, int) and not _BIGINT[0] <= value <= _BIGINT[1] for value in values.values()):
            return []  # an id no column can hold: no row (the driver would raise where the ORM answers nothing)
        wrapper = connections[DEFAULT_DB_ALIAS]
        compiled = self._by_connection.get(wrapper)
        if compiled is None:
            compiled = self._by_connection[wrapper] = self._compile(wrapper)
        sql, slots, compiler, converters = compiled
        params = [values[slot] if isinstance(slot, str) else slot[0] for slot in slots]
        with wrapper.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        if converters:
            rows = [tuple(row) for row in compiler.apply_converters(rows, converters)]
        return rows

    def first(self, **values) -> tuple | None:
        rows = self.rows(**values)
        return rows[0] if rows else None

    def _compile(self, wrapper) -> tuple[str, list, object, dict]:
        stand_ins = {
            name: _INT_STAND_IN + index if kind is int else f"{_STR_STAND_IN}{index}"
            for index, (name, kind) in enumerate(self.kinds.items())
        }
        queryset = self.build(**stand_ins)
        query = queryset.query
        names = [*query.extra_select, *query.values_select, *query.annotation_select]
        if list(queryset._fields) != names:
            raise ValueError(f"list the annotations last, in their order: {queryset._fields} is read as {names}")
        compiler = query.get_compiler(connection=wrapper)
        sql, params = compiler.as_sql()
        by_value = {value: name for name, value in stand_ins.items()}
        slots: list = []
        for param in params:
            name = by_value.get(param) if isinstance(param, int | str) else None
            if name is None and any(str(value) in str(param) for value in stand_ins.values()):
                raise ValueError(f"the ORM transformed a varying value: {param!r}")
            slots.append(name if name is not None else (param,))
        missing = set(stand_ins) - {slot for slot in slots if isinstance(slot, str)}
        if missing:
            raise ValueError(f"values the SQL does not take: {sorted(missing)}")
        converters = compiler.get_converters([column for column, _sql, _alias in compiler.select])
        return sql, slots, compiler, converters


def row_reader(model: type[Model]) -> Callable[[int], Model | None]:
    """A function that reads ``model``'s row by primary key (None if there is none), as
    ``model._default_manager.filter(pk=pk).first()`` would, compiled once."""
    names = [field.attname for field in model._meta.concrete_fields]
    compiled = Compiled(lambda pk: model._default_manager.filter(pk=pk).values_list(*names), pk=int)

    def read(pk: int) -> Model | None:
        row = compiled.first(pk=pk)
        return None if row is None else model.from_db(DEFAULT_DB_ALIAS, names, row)

    return read
