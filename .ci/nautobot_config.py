"""Nautobot's settings for the tests' private server (tests/sot/nautobot_server.py): everything comes from
NAUTOBOT_* environment variables (database and Redis on Unix sockets in a scratch folder)."""

import os

from nautobot.core.settings import *  # noqa: F401,F403
from nautobot.core.settings_funcs import is_truthy  # noqa: F401

SECRET_KEY = os.environ["NAUTOBOT_SECRET_KEY"]
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLATION_METRICS_ENABLED = False
CELERY_BROKER_URL = os.environ["NAUTOBOT_CELERY_BROKER_URL"]
