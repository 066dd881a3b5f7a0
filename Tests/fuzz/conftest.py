"""API fuzzing: one devnet with real data for the whole module (starting and seeding it takes a while)."""
import pytest

from devnet import Devnet


@pytest.fixture(scope="session")
def devnet():
    d = Devnet()
    try:
        d.seed()
        yield d
    finally:
        d.stop()
