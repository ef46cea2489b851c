import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_cache():
    # Throttle counts (API rates, failed sign-ins) live in the cache: one test's must not
    # throttle the next.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def admin_user(django_user_model):
    return django_user_model.objects.create_user(
        username="ada", password="pw-ada-123", is_staff=True, is_superuser=True
    )


@pytest.fixture
def reviewer(django_user_model):
    return django_user_model.objects.create_user(username="rita", password="pw-rita-123")
