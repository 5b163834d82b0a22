"""The web application (issue 2: the factory and the health check)."""

import pytest

from app import create_app


@pytest.fixture
def client():
    return create_app({"TESTING": True}).test_client()


def test_health_check_reports_the_loaded_dictionaries(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json["status"] == "ok"
    assert response.json["dictionaries"]["en"] > 100_000
