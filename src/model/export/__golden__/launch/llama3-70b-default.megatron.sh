# Megatron-LM flags for Llama 3 70B on 64 × NVIDIA H100 SXM5 80GB, from llm-train-planner.
# Launch: torchrun --nnodes 8 --nproc-per-node 8 pretrain_gpt.py <these flags> <your data, tokenizer, learning-rate and checkpoint flags>
# Data parallel 2 = 64 GPUs / (TP 8 × PP 4 × CP 1): Megatron-LM derives it from the world size.
# Not expressible here (set elsewhere, or accept the difference):
#   - vocabulary 128256: set by your tokenizer (--tokenizer-type/--tokenizer-model, or --vocab-size with the NullTokenizer)
--tensor-model-parallel-size 8 \
--pipeline-model-parallel-size 4 \
--sequence-parallel \
--use-distributed-optimizer \
--micro-batch-size 1 \
--global-batch-size 256 \
--seq-length 8192 \
--max-position-embeddings 8192 \
--num-layers 80 \
--hidden-size 8192 \
--ffn-hidden-size 28672 \
--num-attention-heads 64 \
--group-query-attention \
--num-query-groups 8 \
--swiglu \
--untie-embeddings-and-output-weights \
--bf16 \
--optimizer adam \
--recompute-granularity selective \
--attention-backend flash
