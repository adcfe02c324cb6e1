"""Peak memory and step time of one training step, eager against torch.compile, on a
Llama-shaped model built from its config (random weights), one GPU; not part of CI.

Usage: python3 scripts/gpu/measure-compile.py OUT.json
"""

import gc
import json
import statistics
import sys
import time

import torch
from transformers import LlamaConfig, LlamaForCausalLM

OUT = sys.argv[1] if len(sys.argv) > 1 else "measure-compile.json"
results = {"env": {"torch": torch.__version__, "gpu": torch.cuda.get_device_name(0)}, "cases": [], "errors": []}

# Llama 3.2 1B (meta-llama/Llama-3.2-1B config.json)
SHAPE = dict(hidden_size=2048, intermediate_size=8192, num_hidden_layers=16, num_attention_heads=32,
             num_key_value_heads=8, vocab_size=128256, tie_word_embeddings=True, head_dim=64)


def run(compiled, seq, batch, checkpointing, steps=6, warmup=3):
    gc.collect(); torch.cuda.empty_cache(); torch.cuda.reset_peak_memory_stats()
    torch.set_default_dtype(torch.bfloat16)
    with torch.device("cuda"):
        model = LlamaForCausalLM(LlamaConfig(**SHAPE, max_position_embeddings=8192, attn_implementation="sdpa"))
    torch.set_default_dtype(torch.float32)
    model.config.use_cache = False
    if checkpointing:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-5, fused=True)
    fwd = torch.compile(model) if compiled else model
    ids = torch.randint(0, 128256, (batch, seq), device="cuda")
    times = []
    t_first = None
    for i in range(steps):
        torch.cuda.synchronize(); t0 = time.perf_counter()
        out = fwd(input_ids=ids, labels=ids)
        out.loss.backward()
        opt.step(); opt.zero_grad(set_to_none=True)
        del out
        torch.cuda.synchronize()
        if i == 0:
            t_first = time.perf_counter() - t0
        if i == warmup - 1:
            torch.cuda.reset_peak_memory_stats()  # the steady-state peak, after compilation
        if i >= warmup:
            times.append(time.perf_counter() - t0)
    case = dict(shape="llama3.2-1b", compiled=compiled, seqLen=seq, microBatch=batch, checkpointing=checkpointing,
                peakAllocated=torch.cuda.max_memory_allocated(), peakReserved=torch.cuda.max_memory_reserved(),
                stepSeconds=statistics.median(times), firstStepSeconds=t_first)
    del model, opt, fwd, ids
    return case


for compiled, seq, batch, ckpt in [(False, 4096, 1, False), (True, 4096, 1, False), (False, 4096, 1, True), (True, 4096, 1, True)]:
    try:
        c = run(compiled, seq, batch, ckpt)
        results["cases"].append(c)
        print(json.dumps(c), flush=True)
    except Exception as e:  # noqa: BLE001
        results["errors"].append(f"compiled={compiled} ckpt={ckpt}: {type(e).__name__}: {str(e)[:400]}")
        print(results["errors"][-1], flush=True)
    with open(OUT, "w") as f:
        json.dump(results, f, indent=1)
print("done", flush=True)
