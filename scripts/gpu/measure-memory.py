"""Measures what one GPU holds and how fast it steps for small training runs, to test the
engine's memory and time against real steps (not part of CI: it needs a CUDA GPU and PyTorch,
transformers and peft).

Usage: python3 scripts/gpu/measure-memory.py OUT.json

For each case it records torch.cuda.max_memory_allocated ("peak allocated"),
torch.cuda.max_memory_reserved ("peak reserved"), and the device's used memory by NVML after
the timed steps (what nvidia-smi shows: reserved plus the CUDA context and what libraries hold
outside PyTorch's allocator), with the median step time over the timed steps. Before any case
it records the CUDA context alone, and what the first cuBLAS GEMM and a one-rank NCCL
all-reduce add.
"""

import gc
import json
import os
import statistics
import sys
import time

import torch

OUT = sys.argv[1] if len(sys.argv) > 1 else "measure-memory.json"
MiB = 1024 * 1024
results = {"cases": [], "errors": []}


def save():
    with open(OUT, "w") as f:
        json.dump(results, f, indent=1)


def nvml_used():
    try:
        import pynvml

        pynvml.nvmlInit()
        h = pynvml.nvmlDeviceGetHandleByIndex(0)
        return pynvml.nvmlDeviceGetMemoryInfo(h).used
    except Exception as e:  # noqa: BLE001
        results["errors"].append(f"nvml: {e}")
        return None


def fresh():
    gc.collect()
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()


used_before_torch = nvml_used()
results["env"] = {
    "torch": torch.__version__,
    "cuda": torch.version.cuda,
    "gpu": None,
    "used_before_cuda_init": used_before_torch,
}

# 1. The CUDA context, then the first GEMM (cuBLAS handle and workspace), then one-rank NCCL.
torch.cuda.init()
x = torch.empty(1, device="cuda")
torch.cuda.synchronize()
results["env"]["gpu"] = torch.cuda.get_device_name(0)
ctx = {"used_after_init": nvml_used(), "reserved_after_init": torch.cuda.memory_reserved()}
a = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
b = a @ a
torch.cuda.synchronize()
ctx["used_after_gemm"] = nvml_used()
ctx["reserved_after_gemm"] = torch.cuda.memory_reserved()
ctx["allocated_after_gemm"] = torch.cuda.memory_allocated()
del a, b
try:
    import torch.distributed as dist

    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29512")
    dist.init_process_group("nccl", rank=0, world_size=1, device_id=torch.device("cuda:0"))
    t = torch.ones(1 << 20, device="cuda")
    dist.all_reduce(t)
    torch.cuda.synchronize()
    ctx["used_after_nccl"] = nvml_used()
    ctx["reserved_after_nccl"] = torch.cuda.memory_reserved()
    dist.destroy_process_group()
    del t
except Exception as e:  # noqa: BLE001
    results["errors"].append(f"nccl: {e}")
results["context"] = ctx
save()
print(json.dumps(results), flush=True)

# 2. Training steps on Llama-shaped models built from their configs (random weights).
from transformers import LlamaConfig, LlamaForCausalLM  # noqa: E402

SHAPES = {
    # Llama 3.2 1B (meta-llama/Llama-3.2-1B config.json)
    "llama3.2-1b": dict(hidden_size=2048, intermediate_size=8192, num_hidden_layers=16, num_attention_heads=32,
                        num_key_value_heads=8, vocab_size=128256, tie_word_embeddings=True, head_dim=64),
    # Llama 3.1 8B (meta-llama/Llama-3.1-8B config.json)
    "llama3.1-8b": dict(hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
                        num_key_value_heads=8, vocab_size=128256, tie_word_embeddings=False, head_dim=128),
}
LORA_MODULES = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


def run_case(shape, method, seq, batch, checkpointing, steps=6, warmup=2):
    case = dict(shape=shape, method=method, seqLen=seq, microBatch=batch, checkpointing=checkpointing,
                dtype="bf16 weights, AdamW(fused) states in bf16", attn="sdpa", rank=16 if method == "lora" else None)
    fresh()
    torch.set_default_dtype(torch.bfloat16)
    cfg = LlamaConfig(**SHAPES[shape], max_position_embeddings=8192, attn_implementation="sdpa")
    with torch.device("cuda"):
        model = LlamaForCausalLM(cfg)
    torch.set_default_dtype(torch.float32)
    if method == "lora":
        from peft import LoraConfig, get_peft_model

        model = get_peft_model(model, LoraConfig(r=16, lora_alpha=32, lora_dropout=0.0, target_modules=LORA_MODULES))
    if checkpointing:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    model.config.use_cache = False
    model.train()
    params = [p for p in model.parameters() if p.requires_grad]
    case["trainableParams"] = sum(p.numel() for p in params)
    case["totalParams"] = sum(p.numel() for p in model.parameters())
    opt = torch.optim.AdamW(params, lr=1e-5, fused=True)
    ids = torch.randint(0, cfg.vocab_size, (batch, seq), device="cuda")
    torch.cuda.synchronize()
    case["allocatedAfterSetup"] = torch.cuda.memory_allocated()
    times = []
    for i in range(steps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        out = model(input_ids=ids, labels=ids)
        out.loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        del out
        torch.cuda.synchronize()
        if i >= warmup:
            times.append(time.perf_counter() - t0)
    case["peakAllocated"] = torch.cuda.max_memory_allocated()
    case["peakReserved"] = torch.cuda.max_memory_reserved()
    case["deviceUsed"] = nvml_used()
    case["stepSeconds"] = statistics.median(times)
    case["tokensPerSecond"] = batch * seq / case["stepSeconds"]
    del model, opt, ids, params
    return case


CASES = [
    ("llama3.2-1b", "full", 2048, 1, False),
    ("llama3.2-1b", "full", 2048, 1, True),
    ("llama3.2-1b", "lora", 2048, 1, False),
    ("llama3.2-1b", "lora", 2048, 1, True),
    ("llama3.2-1b", "full", 4096, 2, True),
    ("llama3.1-8b", "lora", 2048, 1, False),
    ("llama3.1-8b", "lora", 2048, 1, True),
    ("llama3.1-8b", "full", 2048, 1, True),
    ("llama3.1-8b", "full", 2048, 1, False),
]

for shape, method, seq, batch, ckpt in CASES:
    t0 = time.perf_counter()
    try:
        case = run_case(shape, method, seq, batch, ckpt)
        case["wallSeconds"] = time.perf_counter() - t0
        results["cases"].append(case)
        print(json.dumps(case), flush=True)
    except Exception as e:  # noqa: BLE001
        results["errors"].append(f"{shape} {method} {seq}x{batch} ckpt={ckpt}: {type(e).__name__}: {str(e)[:300]}")
        print(results["errors"][-1], flush=True)
    save()
    fresh()
print("done", flush=True)
