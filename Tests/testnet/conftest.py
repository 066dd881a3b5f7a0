"""End-to-end tests on scripts/testnet: one testnet (node, six blobbers, a client, each in its own
network namespace, TLS between them) for the whole session, removed at the end even on failure."""
import os

import pytest

from testnet import Testnet


@pytest.fixture(scope="session")
def net():
    if os.geteuid() != 0:
        pytest.skip("the testnet tests need root (network namespaces); run them as root, as CI does")
    t = Testnet()
    try:
        t.up()
        yield t
    finally:
        t.down()
