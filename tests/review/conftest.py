"""Fixtures for the review UI. Answers, check runs and labels come from tests/factories.py."""

import pytest


@pytest.fixture
def reviewer_client(client, reviewer):
    client.force_login(reviewer)
    return client
