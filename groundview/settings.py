"""Settings for groundview.

Everything that differs between a laptop and a deployment comes from the environment.
With nothing set, groundview runs on a SQLite file under var/ with Celery in eager mode.
"""

import os
import re
import secrets
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from groundview.ops.errors import init_sentry
from groundview.ops.logs import logging_config
from groundview.security.headers import DEFAULT_POLICY as DEFAULT_CSP
from groundview.security.proxies import networks as trusted_proxy_networks

PACKAGE_DIR = Path(__file__).resolve().parent
BASE_DIR = PACKAGE_DIR.parent


def _data_dir() -> Path:
    """Where the secret key, the SQLite file and collected static files live.

    A checkout keeps them in ./var as it always has. An installed package must not write into
    site-packages, so there the default is the user's data folder (XDG). GROUNDVIEW_VAR_DIR is the
    older name of GROUNDVIEW_DATA_DIR."""
    chosen = os.environ.get("GROUNDVIEW_DATA_DIR") or os.environ.get("GROUNDVIEW_VAR_DIR")
    if chosen:
        return Path(chosen).expanduser()
    if (BASE_DIR / "manage.py").is_file():
        return BASE_DIR / "var"
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "groundview"


DATA_DIR = _data_dir()
VAR_DIR = DATA_DIR


# Every value read from the environment is checked here, so a typo stops start-up with a message
# naming the variable, rather than a bare ValueError at start-up or a 500 on some later request.
TRUE, FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}
# As DRF reads a rate: a count, then a period of which only the first letter counts.
RATE = re.compile(r"[1-9][0-9]*/[smhd][a-z]*")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    if value.strip().lower() not in TRUE | FALSE:
        raise ImproperlyConfigured(f"{name}={value!r}: use 1/0, true/false, yes/no or on/off")
    return value.strip().lower() in TRUE


def env_number(name: str, default: float, *, minimum: float, kind: type = int):
    """An int (or, with kind=float, a float) of at least `minimum`."""
    value = os.environ.get(name, "").strip()
    if not value:
        return kind(default)
    try:
        number = kind(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r}: expected a number, e.g. {default}") from None
    if number < minimum:
        raise ImproperlyConfigured(f"{name}={value!r}: must be at least {minimum}")
    return number


def env_rate(name: str, default: str) -> str | None:
    """A DRF throttle rate ("60/minute"); empty turns the limit off."""
    value = os.environ.get(name, default).strip()
    if value and not RATE.fullmatch(value):
        raise ImproperlyConfigured(
            f"{name}={value!r}: expected requests per period, e.g. 60/minute (second, hour, day)"
        )
    return value or None


def env_log_level(name: str, default: str) -> str:
    value = os.environ.get(name, "").strip().upper() or default
    if value not in LOG_LEVELS:
        raise ImproperlyConfigured(f"{name}={value!r}: use one of {', '.join(LOG_LEVELS)}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", default=True)


def _secret_key() -> str:
    key = os.environ.get("SECRET_KEY")
    if key:
        return key
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    # Local use: generate once and keep it, so sessions survive restarts.
    path = VAR_DIR / "secret_key"
    if not path.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "groundview.answers",
    "groundview.review",
    "groundview.api",
]

MIDDLEWARE = [
    # First: /healthz, /readyz and /metrics must answer before Host validation and HTTPS redirects.
    "groundview.ops.middleware.OpsMiddleware",
    # Before anything reads X-Forwarded-*: only trusted proxies may set them.
    "groundview.security.proxies.ForwardedHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "groundview.security.headers.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "groundview.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # Inside the package so a wheel carries them (in a checkout, a link to ./templates).
        "DIRS": [PACKAGE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "groundview.wsgi.application"

if not os.environ.get("DATABASE_URL"):
    # The default SQLite file lives in the data folder, which a fresh install has yet to create.
    DATA_DIR.mkdir(parents=True, exist_ok=True)
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'groundview.sqlite3'}",
        conn_max_age=env_number("DATABASE_CONN_MAX_AGE", 60, minimum=0),
        # A persistent connection may have been closed under us (database restart, failover,
        # pg_terminate_backend): check it before each request's first query and reconnect.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # An unreachable server (a dead host rather than a stopped one) must fail a request or a
    # readiness probe in seconds, not after the kernel's TCP timeout of minutes: on connecting,
    # and, through libpq's keepalives, on a connection kept open that the host behind it left.
    options = DATABASES["default"].setdefault("OPTIONS", {})
    options.setdefault("connect_timeout", env_number("DATABASE_CONNECT_TIMEOUT", 5, minimum=1))
    for option, value in {
        "keepalives": 1,
        "keepalives_idle": 30,
        "keepalives_interval": 10,
        "keepalives_count": 3,
    }.items():
        options.setdefault(option, value)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [PACKAGE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", VAR_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "review:answer_list"
LOGOUT_REDIRECT_URL = "login"

# Celery: with no broker configured, tasks run in-process so one command gives the whole product.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Redis redelivers an unacknowledged task after this long; it must exceed the longest task.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_number("CELERY_VISIBILITY_TIMEOUT", 3600, minimum=1)
}

# Queue a grounding check for every imported answer (import command and API create).
GROUNDVIEW_CHECK_ON_IMPORT = env_bool("GROUNDVIEW_CHECK_ON_IMPORT", default=False)
# Checks per Celery task: a worker runs a task's checks through the engine together.
GROUNDVIEW_CHECK_BATCH_SIZE = env_number("GROUNDVIEW_CHECK_BATCH_SIZE", 8, minimum=1)
# Dotted path of a callable(EngineConfig) -> engine; empty = groundview.grounding.get_engine.
# Tests point workers at fake engines with it.
GROUNDVIEW_CHECK_ENGINE = os.environ.get("GROUNDVIEW_CHECK_ENGINE", "")
# The lease of a check run: a run still queued or running this long after its worker last renewed
# it (or after it was queued) is sent again by the workers' sweep (groundview/answers/checks/).
GROUNDVIEW_STALE_RUN_SECONDS = env_number("GROUNDVIEW_STALE_RUN_SECONDS", 300, minimum=1)
# `manage.py calibrate_checker` refuses to fit a checker version on fewer labelled claims: below
# about this many, held-out figures are noise (groundview/review/checker_versions.py).
GROUNDVIEW_CALIBRATION_MIN_LABELS = env_number("GROUNDVIEW_CALIBRATION_MIN_LABELS", 50, minimum=1)
# Check Grounding requests running the engine at once per web process; one that waits longer than
# GROUNDVIEW_CHECK_QUEUE_SECONDS for a slot is answered 429 with Retry-After (groundview/api/).
GROUNDVIEW_MAX_CONCURRENT_CHECKS = env_number("GROUNDVIEW_MAX_CONCURRENT_CHECKS", 2, minimum=1)
GROUNDVIEW_CHECK_QUEUE_SECONDS = env_number(
    "GROUNDVIEW_CHECK_QUEUE_SECONDS", 10, minimum=0, kind=float
)

# Turned into groundview.grounding.EngineConfig at the boundary; the engine never reads settings.
GROUNDING = {
    "EMBEDDER_PATH": os.environ.get("GROUNDING_EMBEDDER_PATH") or None,
    "VERIFIER": os.environ.get("GROUNDING_VERIFIER", "features"),
    # The window cross-encoder `make train-cross-encoder` writes, for GROUNDING_VERIFIER=stacked.
    "VERIFIER_PATH": os.environ.get("GROUNDING_VERIFIER_PATH") or None,
    "HEAD_PATH": os.environ.get("GROUNDING_HEAD_PATH") or None,
    "CROSS_ENCODER_PATH": os.environ.get("GROUNDING_CROSS_ENCODER_PATH") or None,
    "CROSS_ENCODER_LABEL_MAP": None,
    "DEFAULT_CITATION_THRESHOLD": 0.6,
    "NUM_THREADS": env_number("GROUNDING_NUM_THREADS", 2, minimum=1),
    # float32: the same scores from every process. auto: bfloat16 where the CPU has it natively and
    # it measures faster at load (often 2-3x faster; scores may move in the fourth decimal).
    "EMBED_PRECISION": os.environ.get("GROUNDING_EMBED_PRECISION", "float32"),
    # Candidates embedded per claim: the head is fitted at 8; fewer is faster and a little less
    # accurate (grounding/CHANGES.md, 0.7.22).
    "EMBED_K": env_number("GROUNDING_EMBED_K", 8, minimum=1),
    # Vertex's limits by default; a stored answer's longer texts are sent as several facts.
    "MAX_FACTS": env_number("GROUNDING_MAX_FACTS", 200, minimum=1),
    "MAX_FACT_CHARS": env_number("GROUNDING_MAX_FACT_CHARS", 10000, minimum=1),
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Bearer first: its WWW-Authenticate header makes anonymous requests 401, not 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "groundview.api.authentication.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["groundview.api.permissions.IsReviewer"],
    "DEFAULT_PAGINATION_CLASS": "groundview.api.pagination.Cursor",
    "DEFAULT_PARSER_CLASSES": ["groundview.api.parsers.JSONBodyParser"],
    "EXCEPTION_HANDLER": "groundview.api.errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "groundview.api.throttles.AnonThrottle",
        "groundview.api.throttles.UserThrottle",
        "groundview.api.throttles.ScopedThrottle",
    ],
}
# Requests per client address (anon: also wrong Bearer tokens), per user, and per user for Check
# Grounding, which runs the model. "N/second|minute|hour|day"; empty switches a limit off.
GROUNDVIEW_THROTTLE_RATES = {
    "anon": env_rate("GROUNDVIEW_THROTTLE_ANON", "60/minute"),
    "user": env_rate("GROUNDVIEW_THROTTLE_USER", "3000/minute"),
    "check_grounding": env_rate("GROUNDVIEW_THROTTLE_CHECK_GROUNDING", "60/minute"),
}

SPECTACULAR_SETTINGS = {
    "TITLE": "groundview API",
    "DESCRIPTION": "Review grounded (RAG) answers: sessions, answers, grounding checks, labels.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SERVE_PERMISSIONS": ["groundview.api.permissions.IsReviewer"],
    # Tags come from the path segment after /api/ (answers, labels, ...); Vertex routes tag themselves.
    "SCHEMA_PATH_PREFIX": "/api/",
    "COMPONENT_SPLIT_REQUEST": True,
    "PREPROCESSING_HOOKS": ["groundview.api.openapi.only_canonical_routes"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "groundview.api.openapi.document_errors",
    ],
}

# One JSON object a line (time, level, logger, message, request_id / task_id, run_ids) for log
# shippers; plain text for a person at a terminal. JSON by default when DEBUG is off.
GROUNDVIEW_LOG_FORMAT = os.environ.get("GROUNDVIEW_LOG_FORMAT") or ("text" if DEBUG else "json")
LOGGING = logging_config(GROUNDVIEW_LOG_FORMAT, env_log_level("LOG_LEVEL", "INFO"))
# Celery workers log through the same configuration instead of their own format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# /metrics: open to anyone who can reach the app unless this is set (then `Bearer <token>`).
# Behind a public proxy, either set it or keep /metrics off the proxy.
GROUNDVIEW_METRICS_TOKEN = os.environ.get("GROUNDVIEW_METRICS_TOKEN", "")

# Errors to Sentry (or GlitchTip) when a DSN is given; needs the `sentry` extra.
if os.environ.get("SENTRY_DSN"):
    init_sentry(os.environ["SENTRY_DSN"], release=f"groundview@{SPECTACULAR_SETTINGS['VERSION']}")

# Throttle counts (API rates, failed sign-ins) live in the cache. The default is per process;
# with several web processes point CACHE_URL at Redis so they share one count.
if os.environ.get("CACHE_URL"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["CACHE_URL"],
        }
    }

# Output is hostile until proven safe (groundview/security/headers.py): script and style only
# from our own files. GROUNDVIEW_CSP replaces the whole policy; empty turns the header off.
GROUNDVIEW_CSP = os.environ.get("GROUNDVIEW_CSP", DEFAULT_CSP)
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# Failed sign-ins per (username, address) before the login pages refuse for a while.
GROUNDVIEW_LOGIN_MAX_FAILURES = env_number("GROUNDVIEW_LOGIN_MAX_FAILURES", 5, minimum=1)
GROUNDVIEW_LOGIN_LOCKOUT_SECONDS = env_number("GROUNDVIEW_LOGIN_LOCKOUT_SECONDS", 900, minimum=1)
# New API tokens stop working after this many days unless an admin sets another date; 0: never.
GROUNDVIEW_API_TOKEN_DAYS = env_number("GROUNDVIEW_API_TOKEN_DAYS", 90, minimum=0)

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=True)

# Reverse proxies whose X-Forwarded-For (the client's address, for throttles and the sign-in
# lockout) and X-Forwarded-Proto are believed: addresses or networks, e.g. 172.16.0.0/12 for a
# proxy container on compose's network. Empty: the client is REMOTE_ADDR (groundview/security/).
GROUNDVIEW_TRUSTED_PROXIES = env_list("GROUNDVIEW_TRUSTED_PROXIES", [])
try:
    trusted_proxy_networks(tuple(GROUNDVIEW_TRUSTED_PROXIES))
except ValueError as error:
    raise ImproperlyConfigured(f"GROUNDVIEW_TRUSTED_PROXIES: {error}") from None

# GROUNDVIEW_HTTPS=1: served over HTTPS behind a proxy that terminates TLS and sets
# X-Forwarded-Proto (compose's users put Caddy, nginx or a cloud balancer in front); with
# GROUNDVIEW_TRUSTED_PROXIES set, only those proxies may say so.
# `manage.py check --deploy` then has nothing to warn about.
if env_bool("GROUNDVIEW_HTTPS", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    # Probes and scrapes come over plain HTTP from inside the network (OpsMiddleware answers them
    # first anyway; this keeps them working if the middleware order ever changes).
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # Browsers remember HSTS: start short (e.g. 3600) if unsure the domain stays on HTTPS.
    SECURE_HSTS_SECONDS = env_number("SECURE_HSTS_SECONDS", 365 * 24 * 3600, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=False)
    if not SECURE_HSTS_PRELOAD:
        # Joining the browsers' preload list is the domain owner's call (it is hard to leave),
        # not a default; the check would otherwise warn on every deploy that makes no such call.
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
