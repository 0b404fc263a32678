"""GPU catalog: memory, bandwidth and low-precision support of the cards people plan for.

Data lives in data/gpus.yaml (one entry per card, each with its `source`); this module only loads it and
resolves the loose names users type ("3090", "rtx4090", "H100 SXM", "a100-40g", "M3 Max 128GB").
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache

from lmscreen.errors import InputError

APPLE_USABLE_FRACTION = 0.75
"""macOS lets the GPU wire about 75% of unified memory by default (sysctl iogpu.wired_limit_mb raises it)."""


@dataclass(kw_only=True, frozen=True)
class GPU:
    """One accelerator (per device). Memory is in GiB (2**30 bytes); bandwidth in GB/s (10**9 bytes/s)."""

    name: str
    aliases: list[str] = field(default_factory=list)
    vendor: str
    arch: str
    """volta | turing | ampere | ada | hopper | blackwell | cdna2 | cdna3 | cdna4 | apple."""
    memory_gib: float
    """Marketed memory per device, taken as GiB (a "24 GB" GDDR card carries 24 GiB of DRAM)."""
    visible_gib: float | None = None
    """Total the driver reports (torch total capacity / vLLM startup log) where a public log shows it."""
    bandwidth_gbs: float
    fp8: bool
    fp4: bool
    sm_count: int | None = None
    """Streaming multiprocessors (AMD: compute units): vLLM's Triton top-k/top-p sampler keeps one
    vocabulary-wide fp32 row per SM it runs on (memory.overhead.sampler_gib); None where not recorded."""
    bf16_tflops: float | None = None
    """Dense BF16 tensor-core TFLOPS (the datasheet's sparse figure halved); None where not recorded."""
    tflops_source: str | None = None
    nvlink_multicast: bool = False
    """Sold on an NVSwitch baseboard (HGX / DGX) whose NVLink multicast (NVLS) NCCL and vLLM's
    symmetric-memory all-reduce use under tensor parallelism; the buffers that takes are outside torch's
    allocator (memory.releases non_torch_tp_multicast_gib). False for PCIe cards and NVLink-bridged pairs."""
    unified_memory: bool = False
    usable_fraction: float = 1.0
    """Share of the memory a model may use: 0.75 on Apple unified memory (OS + GPU wired limit)."""
    note: str | None = None
    source: str

    @property
    def usable_gib(self) -> float:
        """Memory a plan should count on: driver-visible total when known, times usable_fraction."""
        return (self.visible_gib or self.memory_gib) * self.usable_fraction


def _key(text: str) -> str:
    """Canonical form for matching: lower case, no vendor words, no separators, 'G'/'GB' unified."""
    t = text.lower()
    t = re.sub(r"\b(nvidia|geforce|amd|instinct|apple)\b", " ", t)
    t = re.sub(r"(\d+)\s*(gib|gb|g)\b", r"\1gb", t)
    return re.sub(r"[^a-z0-9]", "", t)


@lru_cache(maxsize=1)
def _data() -> dict:
    from lmscreen.model import data_file

    return data_file.load("gpus.yaml")


@lru_cache(maxsize=1)
def all_gpus() -> list[GPU]:
    """Every discrete card in the catalog, then every Apple chip at every memory size sold, in file order."""
    cards = [GPU(**entry) for entry in _data()["gpus"]]
    for chip in _data()["apple"]:
        for size in chip["memory_options_gib"]:
            cards.append(
                GPU(
                    name=f"{chip['name']} {size}GB",
                    vendor="apple",
                    arch="apple",
                    memory_gib=float(size),
                    bandwidth_gbs=chip["bandwidth_gbs"],
                    fp8=False,
                    fp4=False,
                    unified_memory=True,
                    usable_fraction=APPLE_USABLE_FRACTION,
                    note=chip.get("note"),
                    source=chip["source"],
                )
            )
    return cards


@lru_cache(maxsize=1)
def _index() -> dict[str, GPU]:
    index: dict[str, GPU] = {}
    for card in all_gpus():
        for label in [card.name, *card.aliases]:
            index.setdefault(_key(label), card)
            index.setdefault(_key(re.sub(r"^(rtx|gtx)\s*", "", label, flags=re.I)), card)
    return index


_EDITION = re.compile(
    r"\s+(?:max-?q(?:\s+workstation\s+edition)?|(?:workstation|server)\s+edition)\s*$", re.I
)
"""A board edition after a card name ("Server Edition", "Max-Q Workstation Edition", "Max-Q")."""


_MAX_Q = re.compile(r"(?P<card>.+?)\s+max-?q(?:\s+design)?(?:\s+gpu)?\s*$", re.I)
"""A card name with a bare Max-Q after it (not a Max-Q Workstation Edition): a laptop GPU's design."""


def gpu(name: str) -> GPU:
    """Resolve a user-typed card name; unknown → InputError listing close matches.

    Accepts the catalog name, an alias, the name without "RTX"/vendor words, any case or separators
    ("rtx4090", "a100-40g", "H100 SXM", "M3 Max 128GB"), one with a bracketed remark after it, and one with
    a board edition after it ("RTX PRO 6000 Blackwell Server Edition").
    """
    key = _key(name)
    index = _index()
    if key in index:
        return index[key]
    if key.startswith(("rtx", "gtx")) and key[3:] in index:
        return index[key[3:]]
    bare = re.sub(r"\s*\([^)]*\)", " ", name).strip()
    if bare and bare != name:
        # a remark in brackets ("RTX 5090 Laptop GPU (24 GB, SM12x)"): the card is the name outside them
        try:
            return gpu(bare)
        except InputError:
            pass
    laptop = _MAX_Q.match(bare)
    if laptop is not None:
        # "RTX 4070 Max-Q": NVIDIA's Max-Q is a laptop design for GeForce cards (the laptop RTX 4070 has
        # 8 GB where the desktop one has 12), so the card is the laptop one; only an RTX PRO board sells a
        # desktop Max-Q Workstation Edition (below)
        card = laptop.group("card")
        try:
            return gpu(card if re.search(r"laptop|mobile", card, re.I) else f"{card} Laptop")
        except InputError:
            if not card.upper().startswith(("RTX PRO", "NVIDIA RTX PRO")):
                raise InputError(
                    f"GPU {name!r} is a laptop (Max-Q) design whose laptop card is not in the catalog; "
                    "pass --vram-gib with its memory"
                ) from None
    edition = _EDITION.sub("", bare).strip()
    if edition and edition != bare:
        # NVIDIA sells one RTX PRO Blackwell board as a Workstation Edition, a Max-Q Workstation Edition and a
        # Server Edition (same GPU, same memory: nvidia.com RTX PRO 6000 / 4500 Blackwell product pages; the
        # Server Edition logs 95.01 GiB in the blog row of bench/data/vllm-logs-heldout-19.csv, the
        # Workstation Edition 94.97-95.01 in -6 / -7): the card is the name without the edition
        try:
            return gpu(edition)
        except InputError:
            pass
    apple = re.fullmatch(r"(m\d(?:max|ultra|pro))(\d+)?(?:gb)?", key)
    if apple:
        sizes = [c.name for c in all_gpus() if c.unified_memory and _key(c.name).startswith(apple.group(1))]
        if sizes:
            raise InputError(f"GPU {name!r}: say the unified memory size, one of: {', '.join(sizes)}")
    names = [c.name for c in all_gpus()]
    close = difflib.get_close_matches(name, names, n=4, cutoff=0.4) or difflib.get_close_matches(
        key, [_key(n) for n in names], n=4, cutoff=0.5
    )
    hint = f"; close matches: {', '.join(close)}" if close else ""
    raise InputError(f"unknown GPU {name!r}{hint} (or pass --vram-gib)")
