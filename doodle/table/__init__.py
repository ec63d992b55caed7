"""The table in the browser (`doodle table`): an ASGI app whose state is one game dealt by the engine plus the
seats; a big screen deals and every player joins with a phone."""

from doodle.table.session import Stage, TableError, TableSession

__all__ = ["Stage", "TableError", "TableSession"]
