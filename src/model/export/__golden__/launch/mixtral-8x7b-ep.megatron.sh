# Megatron-LM flags for Mixtral 8x7B on 64 × NVIDIA H100 SXM5 80GB, from llm-train-planner.
# Launch: torchrun --nnodes 8 --nproc-per-node 8 pretrain_gpt.py <these flags> <your data, tokenizer, learning-rate and checkpoint flags>
# Data parallel 8 = 64 GPUs / (TP 2 × PP 4 × CP 1): Megatron-LM derives it from the world size.
# Not expressible here (set elsewhere, or accept the difference):
#   - vocabulary 32000: set by your tokenizer (--tokenizer-type/--tokenizer-model, or --vocab-size with the NullTokenizer)
--tensor-model-parallel-size 2 \
--pipeline-model-parallel-size 4 \
--num-layers-per-virtual-pipeline-stage 4 \
--expert-model-parallel-size 8 \
--expert-tensor-parallel-size 2 \
--sequence-parallel \
--use-distributed-optimizer \
--micro-batch-size 1 \
--global-batch-size 512 \
--seq-length 4096 \
--max-position-embeddings 4096 \
--num-layers 32 \
--hidden-size 4096 \
--ffn-hidden-size 14336 \
--num-attention-heads 32 \
--group-query-attention \
--num-query-groups 8 \
--swiglu \
--untie-embeddings-and-output-weights \
--num-experts 8 \
--moe-router-topk 2 \
--moe-ffn-hidden-size 14336 \
--moe-token-dispatcher-type alltoall \
--bf16 \
--fp8-format hybrid \
--optimizer adam \
--recompute-granularity full \
--recompute-method uniform \
--recompute-num-layers 1 \
--attention-backend flash
