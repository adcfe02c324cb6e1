# Megatron-LM launch for Llama 3 8B on 8 × NVIDIA A100 SXM4 80GB, from llm-train-planner.
# Run it on every node from a Megatron-LM checkout (NODE_RANK 0, 1, …; MASTER_ADDR the first node); add your learning-rate and checkpoint flags.
# Data parallel 8 = 8 GPUs / (TP 1 × PP 1 × CP 1): Megatron-LM derives it from the world size.
# Not expressible here (set elsewhere, or accept the difference):
#   - parameter offload to CPU: Megatron-LM has none
#   - data and tokenizer: the command trains on mock data with the NullTokenizer; for real data replace --mock-data with --data-path and the tokenizer flags with --tokenizer-type HuggingFaceTokenizer --tokenizer-model <yours>
torchrun --nnodes 1 --nproc-per-node 8 pretrain_gpt.py \
  --tensor-model-parallel-size 1 \
  --pipeline-model-parallel-size 1 \
  --use-megatron-fsdp \
  --data-parallel-sharding-strategy optim_grads_params \
  --use-distributed-optimizer \
  --no-gradient-accumulation-fusion \
  --ckpt-format fsdp_dtensor \
  --overlap-grad-reduce \
  --overlap-param-gather \
  --micro-batch-size 2 \
  --global-batch-size 64 \
  --seq-length 4096 \
  --max-position-embeddings 4096 \
  --train-samples 244140625 \
  --num-layers 32 \
  --hidden-size 4096 \
  --ffn-hidden-size 14336 \
  --num-attention-heads 32 \
  --group-query-attention \
  --num-query-groups 8 \
  --normalization RMSNorm \
  --position-embedding-type rope \
  --disable-bias-linear \
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
  --attention-backend flash \
  --mock-data \
  --tokenizer-type NullTokenizer \
  --vocab-size 128256
