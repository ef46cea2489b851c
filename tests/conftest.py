import pytest


@pytest.fixture
def admin_user(django_user_model):
    return django_user_model.objects.create_user(
        username="ada", password="pw-ada-123", is_staff=True, is_superuser=True
    )


@pytest.fixture
def reviewer(django_user_model):
    return django_user_model.objects.create_user(username="rita", password="pw-rita-123")
