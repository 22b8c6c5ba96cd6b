"""The one Jinja2 environment every exporter renders with. Templates only format; they decide nothing."""

from __future__ import annotations

from functools import lru_cache

import jinja2

from ..resources import templates_dir

_DICT_ATTRIBUTES = frozenset(dir(dict))


class _Environment(jinja2.Environment):
    """Jinja2's environment, answering ``x.name`` on a stage-1 dict with one lookup.

    Jinja2 tries the attribute first (a failing ``getattr``, an AttributeError raised and caught) and
    then the item: most of a host file's render time. The answer is the same: a dict's own
    attributes (``items``, ``get``...) still win over its keys."""

    def getattr(self, obj, attribute):
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


@lru_cache(maxsize=1)
def template_env() -> jinja2.Environment:
    return _Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
        auto_reload=False,         # the package's templates do not change while it runs: compile each once
    )


def render(template: str, **data) -> str:
    """Render ``templates/<template>`` with plain data (user text is data, never template source)."""
    return template_env().get_template(template).render(**data)
