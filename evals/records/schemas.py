"""The JSON Schemas of result.json and summary.json, made from their models and shipped in
evals/records/schemas/ so that readers outside Python can check what they load."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from iwr.evals.records.results import SCHEMA_VERSION, RunSummary, TaskResult

FOLDER = Path(__file__).resolve().parent / "schemas"
MODELS = {"result": TaskResult, "summary": RunSummary}


def schema_of(kind: str) -> dict:
    """The schema for `result` or `summary`, as the models give it now."""
    schema = MODELS[kind].model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"iwr/{kind}.v{SCHEMA_VERSION}.schema.json", **schema}


def shipped(kind: str) -> dict:
    return json.loads((FOLDER / f"{kind}.schema.json").read_text())


def write_schemas() -> list[Path]:
    """Rewrite the shipped files from the models (after a change to the format)."""
    FOLDER.mkdir(exist_ok=True)
    out = []
    for kind in MODELS:
        p = FOLDER / f"{kind}.schema.json"
        p.write_text(json.dumps(schema_of(kind), indent=2) + "\n")
        out.append(p)
    return out


def problems(kind: str, data: dict) -> list[str]:
    """Where `data` departs from the shipped schema of `kind` (empty when it conforms)."""
    validator = jsonschema.Draft202012Validator(shipped(kind))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in validator.iter_errors(data)]
