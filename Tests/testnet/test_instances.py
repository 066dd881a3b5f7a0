"""Two testnets on one machine: each instance has its own namespace prefix and subnet, a second one on
the same id or subnet is refused, one beside the first runs on its own, and `down` removes exactly
what its instance made. Every namespace these tests make is their own (a testnet instance they
bring up, or a probe namespace with a name of their own), and is removed before they end."""
import hashlib
import json
import os
import subprocess

from testnet import REPO, Testnet

HOSTS = ["net", "node", *[f"b{i}" for i in range(1, 7)], "client"]


def namespaces():
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True).stdout
    return sorted(line.split()[0] for line in out.splitlines() if line.strip())


def ip_json(*args):
    return json.loads(subprocess.run(["ip", "-j", *args], capture_output=True, text=True, check=True).stdout or "[]")


def addresses(name):
    return [a["local"] for link in ip_json("-n", name, "-4", "addr", "show") for a in link.get("addr_info", [])]


def unused_instance(after):
    """An instance id after `after` whose names and subnet nothing on the machine uses."""
    existing = namespaces()
    used = {a for name in existing for a in addresses(name)}
    used |= {a["local"] for link in ip_json("-4", "addr", "show") for a in link.get("addr_info", [])}
    for step in range(1, 256):
        candidate = f"{(int(after, 16) + step) % 256:02x}"
        subnet = f"10.213.{int(candidate, 16)}."
        if not any(n.startswith(f"mz{candidate}-") for n in existing) and not any(a.startswith(subnet) for a in used):
            return candidate
    raise AssertionError("no free testnet instance id on this machine")


def test_the_instance_has_its_own_prefix_subnet_and_marked_namespaces(net):
    state = net.state()
    instance = state["id"]
    assert state["prefix"] == f"mz{instance}-" and state["subnet"] == f"10.213.{int(instance, 16)}", state
    if "MOSAIC_TESTNET_ID" not in os.environ:
        assert instance == hashlib.sha256(str(net.dir.resolve()).encode()).hexdigest()[:2]
    assert sorted(state["namespaces"]) == sorted(f"mz{instance}-{h}" for h in HOSTS)
    for name in state["namespaces"]:
        assert name in namespaces() and len(name) <= 15, name
        (lo,) = ip_json("-n", name, "link", "show", "lo")
        assert lo["ifalias"] == f"mosaic-testnet {net.dir.resolve()}", lo
    assert addresses(f"mz{instance}-node") == ["127.0.0.1", f"{state['subnet']}.10"]
    assert f"namespaces mz{instance}-*, subnet {state['subnet']}.0/24" in net.script("status").stdout


def test_a_second_testnet_on_the_same_instance_id_is_refused_and_its_down_leaves_the_first(net):
    first = net.state()
    other = Testnet(REPO / ".build" / "testnet-same-id", instance=first["id"])
    before = namespaces()
    try:
        refused = other.script("up", check=False)
        assert refused.returncode == 1, refused
        assert f"instance {first['id']} (namespaces mz{first['id']}-*, subnet {first['subnet']}.0/24) cannot come up" in refused.stderr
        assert f"namespace mz{first['id']}-node exists (made by the testnet in {net.dir.resolve()})" in refused.stderr
        assert "MOSAIC_TESTNET_ID=" in refused.stderr, refused.stderr
        assert namespaces() == before
    finally:
        # No state file: `down` finds namespaces of its instance's names, marked as the first's, and leaves them.
        gone = other.script("down")
    assert f"left namespace mz{first['id']}-node: made by the testnet in {net.dir.resolve()}" in gone.stderr
    assert namespaces() == before
    assert "(isolated)" in net.script("status").stdout


def test_a_testnet_whose_subnet_is_in_use_is_refused(net):
    instance = unused_instance(net.state()["id"])
    probe = f"mosaic-probe-{os.getpid()}"
    subnet = f"10.213.{int(instance, 16)}"
    subprocess.run(["ip", "netns", "add", probe], check=True)
    try:
        subprocess.run(["ip", "-n", probe, "addr", "add", f"{subnet}.99/24", "dev", "lo"], check=True)
        other = Testnet(REPO / ".build" / "testnet-subnet-taken", instance=instance)
        refused = other.script("up", check=False)
        assert refused.returncode == 1, refused
        assert f"subnet {subnet}.0/24 is in use: namespace {probe} has {subnet}.99" in refused.stderr, refused.stderr
        assert not any(n.startswith(f"mz{instance}-") for n in namespaces())
        other.script("down")
    finally:
        subprocess.run(["ip", "netns", "delete", probe], check=True)


def test_a_second_testnet_runs_beside_the_first_and_down_removes_only_its_own(net):
    first = net.state()
    instance = unused_instance(first["id"])
    other = Testnet(REPO / ".build" / "testnet-beside", instance=instance)
    try:
        other.up()
        second = other.state()
        assert second["subnet"] == f"10.213.{int(instance, 16)}" != first["subnet"]
        assert all(n.startswith(f"mz{instance}-") for n in second["namespaces"]), second
        status = other.script("status").stdout
        for host in ["node"] + [f"b{i}" for i in range(1, 7)]:
            row = next(line for line in status.splitlines() if line.startswith(host + " "))
            assert row.startswith(f"{host:8} {second['subnet']}.") and row.endswith("open"), row
        # Its client speaks TLS to its own node; the first testnet's client cannot reach it.
        assert other.mosaic("wallet", "balance")
        crossed = net.script("exec", "client", "curl", "-sS", "--max-time", "3", "--cacert", str(other.dir / "tls" / "ca.pem"),
                             f"https://{second['subnet']}.10:7100/v1/network", check=False)
        assert crossed.returncode != 0, crossed.stdout
    finally:
        other.down()
    left = namespaces()
    assert not any(n.startswith(f"mz{instance}-") for n in left), left
    assert all(n in left for n in first["namespaces"])
    assert not other.dir.exists()
    assert "(isolated)" in net.script("status").stdout
