"""Builders for real model files used by the model tests: GGUF / safetensors headers with sparse data.

The files are genuine (written with gguf.GGUFWriter / the safetensors header layout) but their tensor data is
a hole: the file is extended with truncate(), so a multi-GB checkpoint costs no disk and proves that inspect
reads headers only.
"""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path

GIB = 1 << 30


def write_sparse_gguf(path: Path, big_tensor_bytes: int = 4 * GIB, truncate_by: int = 0) -> int:
    """A Llama-shaped GGUF whose tensor data is a hole; returns the total tensor bytes it declares.

    truncate_by > 0 cuts that many bytes off the end (a truncated download).
    """
    import gguf
    import numpy as np
    from gguf import GGMLQuantizationType as T

    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name("Sparse-Llama-Test")
    writer.add_block_count(2)
    writer.add_context_length(4096)
    writer.add_embedding_length(4096)
    writer.add_feed_forward_length(14336)
    writer.add_head_count(32)
    writer.add_head_count_kv(8)
    writer.add_vocab_size(32000)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_Q4_K_M)
    block, type_size = gguf.GGML_QUANT_SIZES[T.Q4_K]
    rows, cols = 32000, 4096
    embd_bytes = rows * cols // block * type_size
    writer.add_tensor_info(
        "token_embd.weight",
        (rows, cols // block * type_size),
        np.dtype(np.uint8),
        embd_bytes,
        raw_dtype=T.Q4_K,
    )
    writer.add_tensor_info(
        "blk.0.ffn_up.weight",
        (big_tensor_bytes // 2,),
        np.dtype(np.float16),
        big_tensor_bytes,
        raw_dtype=T.F16,
    )
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_ti_data_to_file()
    writer.close()
    header = path.stat().st_size
    data_start = (header + 31) // 32 * 32
    embd_padded = (embd_bytes + 31) // 32 * 32
    os.truncate(path, data_start + embd_padded + big_tensor_bytes - truncate_by)
    return embd_bytes + big_tensor_bytes


def write_sparse_safetensors(path: Path, tensors: dict[str, tuple[str, list[int], int]]) -> int:
    """A .safetensors file with (dtype, shape, nbytes) tensors and a hole for data; returns the bytes."""
    header: dict[str, dict] = {"__metadata__": {"format": "pt"}}
    offset = 0
    for name, (dtype, shape, nbytes) in tensors.items():
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + nbytes]}
        offset += nbytes
    blob = json.dumps(header).encode("utf-8")
    blob += b" " * (-len(blob) % 8)
    with path.open("wb") as fh:
        fh.write(struct.pack("<Q", len(blob)))
        fh.write(blob)
    os.truncate(path, 8 + len(blob) + offset)
    return offset
