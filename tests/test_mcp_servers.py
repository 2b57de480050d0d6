"""The assets, workspace, metrics and bench servers through the real MCP protocol (in memory)."""
import json
import os
import time
from pathlib import Path

import pytest
from mcp import Client

from iwr.mcp_servers.assets.server import build_server as assets_server
from iwr.mcp_servers.bench.server import build_server as bench_server
from iwr.mcp_servers.metrics.server import build_server as metrics_server
from iwr.mcp_servers.workspace.core import Workspace, WorkspaceError
from iwr.mcp_servers.workspace.server import build_server as workspace_server


def text_of(result) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


def data_of(result):
    sc = result.structured_content
    if sc is not None:
        return sc["result"] if set(sc) == {"result"} else sc
    return json.loads(text_of(result))


async def test_assets_server_hides_checkpoints_and_hints_from_coders(suite_dir):
    async with Client(assets_server(suite_dir)) as c:
        names = {t.name for t in (await c.list_tools()).tools}
        assert "checkpoint" not in names
        tid = data_of(await c.call_tool("list_tasks", {}))[0]["id"]
        assets = data_of(await c.call_tool("list_assets", {"task_id": tid}))
        assert assets and {"name", "bytes", "type"} <= set(assets[0])
        got = await c.call_tool("get_asset", {"task_id": tid, "name": assets[0]["name"]})
        assert [x.type for x in got.content] == ["text", "image"]
        for bad in ("../data.jsonl", "/etc/passwd", "..", "../../checkpoints/step_0.png"):
            r = await c.call_tool("get_asset", {"task_id": tid, "name": bad})
            assert r.is_error and "plain file name" in text_of(r), bad
        info = data_of(await c.call_tool("video_info", {"task_id": tid}))
        assert info["seconds"] > 3 and info["sampled_frames"] >= 4
        f = await c.call_tool("frame", {"task_id": tid, "time": 1.5})
        assert f.content[1].type == "image"
        assert (await c.call_tool("frame", {"task_id": tid, "index": 999})).is_error
        k = await c.call_tool("keyframes", {"task_id": tid, "limit": 4})
        assert 1 <= len([x for x in k.content if x.type == "image"]) <= 4
        acts = data_of(await c.call_tool("actions", {"task_id": tid}))
        assert acts and all("iwr" not in a for a in acts)
        assert (await c.call_tool("list_assets", {"task_id": "nope"})).is_error
    async with Client(assets_server(suite_dir, judge_mode=True)) as c:
        cp = await c.call_tool("checkpoint", {"task_id": tid, "step": 0})
        assert not cp.is_error and cp.content[1].type == "image"
        assert any("iwr" in a for a in data_of(await c.call_tool("actions", {"task_id": tid})))


def test_workspace_refuses_escapes_and_oversized_writes(tmp_path):
    root = tmp_path / "ws"
    ws = Workspace(root, max_write_bytes=1000)
    (tmp_path / "secret.txt").write_text("outside")
    os.symlink(tmp_path / "secret.txt", root / "link.txt")
    os.symlink(tmp_path, root / "up")
    for bad in ("../secret.txt", "/etc/passwd", "a/../../secret.txt", "link.txt", "up/secret.txt", "~/x"):
        with pytest.raises(WorkspaceError):
            ws.read(bad)
        with pytest.raises(WorkspaceError):
            ws.write(bad, "x")
    with pytest.raises(WorkspaceError, match="limit"):
        ws.write("big.html", "x" * 1001)
    assert (tmp_path / "secret.txt").read_text() == "outside"
    ws.write("sub/page.html", "<p>hi</p><p>hi</p>")
    with pytest.raises(WorkspaceError, match="2 times"):
        ws.edit("sub/page.html", "hi", "yo")
    ws.edit("sub/page.html", "<p>hi</p><p>", "<p>yo</p><p>")
    assert ws.read("sub/page.html")["text"] == "<p>yo</p><p>hi</p>"
    assert [f["path"] for f in ws.list()] == ["sub/page.html"]


async def test_workspace_server_writes_reads_in_parts_and_renders(tmp_path):
    async with Client(workspace_server(tmp_path)) as c:
        page = "<!doctype html><html><body><h1>Draft</h1><img src='https://example.com/a.png'>" \
               "<script>console.error('oops')</script></body></html>"
        assert not (await c.call_tool("write_file", {"path": "index.html", "content": page})).is_error
        part = data_of(await c.call_tool("read_file", {"path": "index.html", "max_chars": 20}))
        assert part["text"] == page[:20] and part["next_start"] == 20 and "start=20" in part["hint"]
        esc = await c.call_tool("write_file", {"path": "../evil.html", "content": "x"})
        assert esc.is_error and not (tmp_path.parent / "evil.html").exists()
        r = await c.call_tool("render", {"path": "index.html", "width": 800, "height": 600})
        assert not r.is_error and r.content[1].type == "image"
        report = r.content[0].text
        assert "oops" in report and "example.com" in report
        assert not (await c.call_tool("delete_file", {"path": "index.html"})).is_error
        assert data_of(await c.call_tool("list_files", {})) == []


async def test_metrics_server_compares_inside_allowed_roots_only(suite_dir, tmp_path):
    cps = sorted((next((suite_dir / "data").iterdir()) / "checkpoints").glob("*.png"))
    async with Client(metrics_server(allowed_roots=[suite_dir])) as c:
        same = data_of(await c.call_tool("compare", {"reference": str(cps[0]), "candidate": str(cps[0]),
                                                     "metrics": ["ocr", "ssim", "feature", "structural"]}))
        assert all(abs(v["value"] - 1) < 1e-6 for v in same.values())
        assert same["ocr"]["backend"] == "tesseract" and same["ssim"]["version"]
        diff = data_of(await c.call_tool("compare", {"reference": str(cps[0]), "candidate": str(cps[-1]),
                                                     "metrics": ["ssim"]}))
        assert diff["ssim"]["value"] < 1
        (tmp_path / "x.png").write_bytes(cps[0].read_bytes())
        r = await c.call_tool("compare", {"reference": str(cps[0]), "candidate": str(tmp_path / "x.png")})
        assert r.is_error and "outside" in text_of(r)
        r = await c.call_tool("compare", {"reference": str(cps[0]), "candidate": str(cps[0]), "metrics": ["magic"]})
        assert r.is_error and "unknown metrics" in text_of(r)


async def test_ocr_reads_a_part_of_an_image_when_given_a_box(tmp_path):
    from PIL import Image, ImageDraw, ImageFont

    img = Image.new("RGB", (800, 200), "white")
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=36)
    draw.text((20, 70), "Saved", fill="black", font=font)
    draw.text((480, 70), "Discard", fill="black", font=font)
    img.save(tmp_path / "two.png")
    async with Client(metrics_server(allowed_roots=[tmp_path])) as c:
        whole = data_of(await c.call_tool("ocr", {"image": str(tmp_path / "two.png")}))["text"]
        left = data_of(await c.call_tool("ocr", {"image": str(tmp_path / "two.png"), "box": [0, 0, 400, 200]}))["text"]
        blank = data_of(await c.call_tool("ocr", {"image": str(tmp_path / "two.png"), "box": [300, 0, 100, 200]}))["text"]
        bad = await c.call_tool("ocr", {"image": str(tmp_path / "two.png"), "box": [0, 0, 0, 10]})
    assert "Saved" in whole and "Discard" in whole
    assert "Saved" in left and "Discard" not in left and blank == ""
    assert bad.is_error and "positive size" in text_of(bad)


async def test_metrics_models_that_fail_to_load_fail_each_request_not_the_server(suite_dir, monkeypatch):
    from iwr.mcp_servers.metrics.compare import MetricModels, MetricUnavailable

    def broken(self):
        raise MetricUnavailable("feature weights unreadable (test)")

    monkeypatch.setattr(MetricModels, "feature_model", broken)
    cp = str(sorted((next((suite_dir / "data").iterdir()) / "checkpoints").glob("*.png"))[0])
    async with Client(metrics_server(allowed_roots=[suite_dir])) as c:  # the server answers while the models load
        for _ in range(2):
            r = await c.call_tool("compare", {"reference": cp, "candidate": cp, "metrics": ["ssim"]})
            assert r.is_error and "infrastructure fault: feature weights unreadable (test)" in text_of(r)
        assert (await c.call_tool("list_metrics", {})).is_error


async def test_a_request_cancelled_while_the_models_load_leaves_the_server_working(suite_dir, monkeypatch):
    import anyio

    from iwr.mcp_servers.metrics.compare import MetricModels

    loaded = MetricModels.feature_model

    def slow(self):
        time.sleep(1.0)
        return loaded(self)

    monkeypatch.setattr(MetricModels, "feature_model", slow)
    cp = str(sorted((next((suite_dir / "data").iterdir()) / "checkpoints").glob("*.png"))[0])
    async with Client(metrics_server(allowed_roots=[suite_dir])) as c:
        with anyio.move_on_after(0.2) as waited:  # the client gives up (and cancels) while the model loads
            await c.call_tool("compare", {"reference": cp, "candidate": cp, "metrics": ["ssim"]})
        assert waited.cancelled_caught
        r = await c.call_tool("compare", {"reference": cp, "candidate": cp, "metrics": ["ssim"]})
        assert not r.is_error and data_of(r)["ssim"]["value"] == 1.0


@pytest.mark.slow
async def test_bench_server_take_submit_evaluate(suite_dir, tmp_path):
    site = suite_dir.parent / "sites" / "reviews"
    async with Client(bench_server(suite_dir, tmp_path / "bench")) as c:
        tid = data_of(await c.call_tool("list_tasks", {}))[0]["id"]
        task = await c.call_tool("get_task", {"task_id": tid, "max_frames": 3})
        kinds = [x.type for x in task.content]
        assert kinds[0] == "text" and kinds.count("image") >= 4 and "start_frame=3" in task.content[0].text
        assert (await c.call_tool("evaluate", {"task_id": tid})).is_error  # nothing submitted yet
        html = (site / "index.html").read_text().replace("assets/poster.png", "__PLACEHOLDER_ASSETS_BASE_DIR__/1.png")
        sub = data_of(await c.call_tool("submit", {"task_id": tid, "html": html}))
        assert Path(sub["stored"]).is_file()
        res = data_of(await c.call_tool("evaluate", {"task_id": tid}))
        assert res["status"] == "scored" and res["ifs"] == 1.0 and res["final"] > 0.9
        assert "actions" not in res and "checkpoints" not in res  # scores only, by default
        assert not list((tmp_path / "bench").rglob("judgement.json"))  # judgements stay out of reach


@pytest.mark.slow
async def test_bench_feedback_levels_never_reveal_expected_texts(suite_dir, tmp_path):
    from iwr.mcp_servers.bench.server import feedback_of

    judged = {"task_id": "1", "status": "scored", "ifs": 0.5, "vfs": 0.2, "final": 0.41, "checkpoints": [{"x": 1}],
              "actions": [{"index": 1, "type": "Click", "description": "Click 'Go'", "status": "failed",
                           "error": "expected 'Total: $42' visible", "grounding": {"target": {"selector": "#go"}}}]}
    assert feedback_of(judged, "none") == {"task_id": "1", "judged": True}
    assert feedback_of(judged, "scores") == {"task_id": "1", "status": "scored", "ifs": 0.5, "vfs": 0.2, "final": 0.41}
    acts = feedback_of(judged, "actions")
    assert acts["actions"] == [{"index": 1, "type": "Click", "description": "Click 'Go'", "status": "failed"}]
    assert "$42" not in json.dumps(acts) and "#go" not in json.dumps(acts)
    async with Client(bench_server(suite_dir, tmp_path / "bench", feedback="actions")) as c:
        tid = data_of(await c.call_tool("list_tasks", {}))[0]["id"]
        await c.call_tool("submit", {"task_id": tid, "html": "<html><body></body></html>"})
        res = data_of(await c.call_tool("evaluate", {"task_id": tid}))
        assert res["final"] < 0.2 and res["actions"][0]["status"] == "failed"
        assert set(res["actions"][0]) == {"index", "type", "description", "status"}
