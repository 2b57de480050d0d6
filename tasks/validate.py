"""Check a suite beyond its schema: files present, checkpoints against visual flags, paths."""
from __future__ import annotations

from pathlib import Path

from PIL import Image

from iwr.tasks.loader import Problem, Suite, Task, parse_lines, resolve_suite_file


def _outside(path: Path, root: Path) -> str | None:
    """Why `path` is not a place inside `root`, or None."""
    try:
        path.resolve().relative_to(root.resolve())
        return None
    except ValueError:
        return "leaves the task folder"
    except (RuntimeError, OSError) as e:  # a symbolic link loop
        return f"cannot be resolved: {e}"


def _image_problem(path: Path, field: str, size: tuple[int, int] | None = None) -> Problem | None:
    """A problem if the file is not an image, or (with `size`) not that size or an integer multiple."""
    try:
        with Image.open(path) as im:
            got = im.size
            im.verify()
    except Exception as e:  # noqa: BLE001 - a malformed file makes PIL raise nearly anything (SyntaxError, bombs)
        return Problem(str(path), field, f"not a readable image: {type(e).__name__}: {e}")
    if size and (got[0] % size[0] or got[1] % size[1] or got[0] // size[0] != got[1] // size[1] or got[0] < size[0]):
        return Problem(str(path), field, f"image is {got[0]}x{got[1]}, but the task's resolution is {size[0]}x{size[1]}")
    return None


def _video_problem(path: Path) -> Problem | None:
    """A problem if the video has no decodable frame (the coders sample frames from it)."""
    import av

    try:
        with av.open(str(path)) as c:
            if not c.streams.video:
                return Problem(str(path), "video", "the file holds no video stream")
            next(c.decode(video=0))
    except StopIteration:
        return Problem(str(path), "video", "the video has no frame")
    except Exception as e:  # noqa: BLE001 - FFmpeg reports broken files with many error types
        return Problem(str(path), "video", f"not a readable video: {type(e).__name__}: {e}")
    return None


def validate_task(task: Task) -> list[Problem]:
    """Every problem of one task folder; an empty list means the task is usable."""
    rec, d, out = task.record, task.folder, []
    where = f"data/{rec.id}"
    if not d.is_dir():
        return [Problem(str(d), "id", f"task folder {where} does not exist")]
    if task.video is None:
        out.append(Problem(str(d), "video", f"no video.mp4 or video.webm in {where}"))
    elif (p := _video_problem(task.video)) is not None:
        out.append(p)
    sheets = task.asset_sheets()
    if not sheets:
        out.append(Problem(str(d / "stitched_assets"), "stitched_assets", "no stitched asset sheet"))
    out.extend(p for s in sheets if (p := _image_problem(s, "stitched_assets")) is not None)
    plan = task.checkpoints()
    if plan.strays:
        out.append(Problem(str(d / "checkpoints"), "checkpoints", f"checkpoints that pair with no judged screenshot "
                           f"(numbered by {plan.convention}): {plan.strays}"))
    for step, cp in plan.files.items():
        field = "checkpoints" if step == 0 else f"action_sequence.{step - 1}.visual_evaluation_flag"
        if step in plan.missing:
            out.append(Problem(str(cp), field, f"checkpoint {cp.name} is missing (checkpoints numbered by "
                                               f"{plan.convention}, the nearest fit)"))
        elif (p := _image_problem(cp, field, task.size)) is not None:
            out.append(p)
    for i, a in enumerate(rec.action_sequence):
        if a.type == "Press" and not (a.parameters.key or a.parameters.description):
            out.append(Problem(str(d), f"action_sequence.{i}.parameters.key", "Press needs a key or a description"))
        crop = a.iwr.target.crop if a.iwr and a.iwr.target else None
        if crop:
            p = d / crop
            if (why := _outside(p, d)) is not None:
                out.append(Problem(str(d), f"action_sequence.{i}.iwr.target.crop", f"path {crop!r} {why}"))
            elif not p.is_file():
                out.append(Problem(str(p), f"action_sequence.{i}.iwr.target.crop", "file does not exist"))
    try:
        ref = task.reference_site()
    except (RuntimeError, OSError) as e:  # a symbolic link loop on the way
        return [*out, Problem(str(d), "iwr.reference.site", f"cannot be resolved: {e}")]
    if ref is not None:
        if not (ref / rec.iwr.reference.page).is_file():
            out.append(Problem(str(d), "iwr.reference.page", f"{ref / rec.iwr.reference.page} does not exist"))
    return out


def validate_suite(path: str | Path) -> list[Problem]:
    """All problems of a suite: data.jsonl lines first, then each task folder."""
    f = resolve_suite_file(path)
    records, problems = parse_lines(f)
    suite = Suite(root=f.resolve().parent)
    for rec in records:
        t = Task(record=rec, folder=suite.root / "data" / str(rec.id), suite_root=suite.root)
        problems.extend(validate_task(t))
    if not records and not problems:
        problems.append(Problem(str(f), "(file)", "no tasks"))
    return problems
