"""The shipped tables through model.validate's pydantic models.

At run time model/ builds its records from data/models.yaml and data/gpus.yaml unchecked (plain
dataclasses, no pydantic import), so here every entry must be one those models accept unchanged (the same
repr: no value converted), and every catalog config must give the same spec through the plain reader as
through the checked one a user's config.json goes through."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest
from pydantic import ValidationError

from lmscreen.errors import InputError
from lmscreen.model import data_file, validate
from lmscreen.model.arch.config import spec_from_config
from lmscreen.model.arch.read import read_local
from lmscreen.model.catalog.models import CatalogEntry, all_models, raw_entries
from lmscreen.model.hardware import GPU, all_gpus
from lmscreen.model.spec import PLAIN


def test_every_catalog_entry_is_valid_as_it_stands() -> None:
    raw = raw_entries()
    built = all_models()
    assert len(raw) == len(built) > 100
    for item, entry in zip(raw, built, strict=True):
        checked = validate.CATALOG_ENTRY.validate_python(item)
        assert repr(checked) == repr(entry), item["id"]  # no value converted (an int where a float goes …)
        assert set(item) <= {f for f in CatalogEntry.__dataclass_fields__}, item["id"]


def test_every_gpu_is_valid_as_it_stands() -> None:
    fields = set(GPU.__dataclass_fields__)
    for entry in data_file.load("gpus.yaml")["gpus"]:
        assert set(entry) <= fields, entry["name"]
        assert repr(validate.GPU.validate_python(entry)) == repr(GPU(**entry)), entry["name"]
    cards = all_gpus()
    assert len(cards) > 50
    for card in cards:  # the Apple cards are built in code from each chip's memory options
        assert repr(validate.GPU.validate_python(asdict(card))) == repr(card), card.name


def test_every_catalog_config_reads_the_same_plain_and_checked() -> None:
    for entry in all_models():
        plain = spec_from_config(entry.config, entry.id, PLAIN)
        checked = spec_from_config(entry.config, entry.id, validate.CHECKED)
        assert type(checked) is not type(plain)  # pydantic's twin did the checking
        assert repr(validate.plain(checked)) == repr(plain), entry.id


def test_the_checks_can_fail() -> None:
    """What the tests above would catch: a value pydantic converts (so the repr differs from the record
    built unchecked), a value no field can hold, a missing field, a fractional layer count in a config."""
    gpu = dict(data_file.load("gpus.yaml")["gpus"][0])
    as_int = {**gpu, "memory_gib": 24}
    assert repr(validate.GPU.validate_python(as_int)) != repr(GPU(**as_int))
    with pytest.raises(ValidationError):
        validate.GPU.validate_python({**gpu, "fp8": "maybe"})
    del gpu["memory_gib"]
    with pytest.raises(ValidationError):
        validate.GPU.validate_python(gpu)
    with pytest.raises(ValidationError):
        validate.CATALOG_ENTRY.validate_python({**raw_entries()[0], "total_params_b": "eight"})
    config = dict(all_models()[0].config, num_hidden_layers=36.5)
    with pytest.raises(ValidationError):
        spec_from_config(config, "x", validate.CHECKED)


def test_a_users_config_is_converted_and_checked_by_pydantic(tmp_path) -> None:
    """A user's config.json goes through the checked twin: pydantic's lax conversions hold ("32" heads
    read as 32, a 4096.0 width as 4096), and a value no field can hold is a one-line error naming the
    field."""
    base = dict(next(e for e in all_models() if e.id == "Qwen/Qwen3-8B").config)
    good = tmp_path / "good" / "config.json"
    good.parent.mkdir()
    good.write_text(json.dumps({**base, "num_attention_heads": "32", "hidden_size": 4096.0}))
    spec = read_local(good)
    assert type(spec) is type(spec_from_config(base, "x"))  # handed back as the plain dataclass
    assert (spec.num_attention_heads, spec.hidden_size) == (32, 4096)
    assert repr(spec.hidden_size) == "4096"
    assert spec.total_params == spec_from_config(base, "x").total_params
    bad = tmp_path / "bad" / "config.json"
    bad.parent.mkdir()
    bad.write_text(json.dumps({**base, "max_position_embeddings": "long"}))
    with pytest.raises(InputError) as exc:
        read_local(bad)
    message = str(exc.value)
    assert message.endswith(
        "unusable model metadata (max_position_embeddings: Input should be a valid integer, unable to parse "
        "string as an integer)"
    )
    assert "\n" not in message
