"""The one Jinja2 environment every exporter renders with. Templates only format; they decide nothing."""

from __future__ import annotations

from functools import lru_cache

import jinja2

from ..resources import templates_dir


@lru_cache(maxsize=1)
def template_env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )


def render(template: str, **data) -> str:
    """Render ``templates/<template>`` with plain data (user text is data, never template source)."""
    return template_env().get_template(template).render(**data)
