# Megatron-LM flags for Llama 3 8B on 8 × NVIDIA A100 SXM4 80GB, from llm-train-planner.
# Launch: torchrun --nnodes 1 --nproc-per-node 8 pretrain_gpt.py <these flags> <your data, tokenizer, learning-rate and checkpoint flags>
# Data parallel 8 = 8 GPUs / (TP 1 × PP 1 × CP 1): Megatron-LM derives it from the world size.
# Not expressible here (set elsewhere, or accept the difference):
#   - vocabulary 128256: set by your tokenizer (--tokenizer-type/--tokenizer-model, or --vocab-size with the NullTokenizer)
#   - parameter offload to CPU: Megatron-LM has none
--tensor-model-parallel-size 1 \
--pipeline-model-parallel-size 1 \
--use-megatron-fsdp \
--data-parallel-sharding-strategy optim_grads_params \
--use-distributed-optimizer \
--no-gradient-accumulation-fusion \
--ckpt-format fsdp_dtensor \
--micro-batch-size 2 \
--global-batch-size 64 \
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
--bf16 \
--grad-reduce-in-bf16 \
--optimizer adam \
--optimizer-cpu-offload \
--use-precision-aware-optimizer \
--recompute-granularity full \
--recompute-method uniform \
--recompute-num-layers 1 \
--attention-backend flash
