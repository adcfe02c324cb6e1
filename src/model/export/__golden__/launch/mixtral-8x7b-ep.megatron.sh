# Megatron-LM launch for Mixtral 8x7B on 64 × NVIDIA H100 SXM5 80GB, from llm-train-planner.
# Run it on every node from a Megatron-LM checkout (NODE_RANK 0, 1, …; MASTER_ADDR the first node); add your learning-rate and checkpoint flags.
# Data parallel 8 = 64 GPUs / (TP 2 × PP 4 × CP 1): Megatron-LM derives it from the world size.
# Not expressible here (set elsewhere, or accept the difference):
#   - routing: the estimate assumes every expert gets an even share of the tokens (balanced routing); the aux loss keeps learned routing near it, and --moe-router-force-load-balancing forces it for a benchmark (Megatron-LM: "for benchmarking purposes only")
#   - data and tokenizer: the command trains on mock data with the NullTokenizer; for real data replace --mock-data with --data-path and the tokenizer flags with --tokenizer-type HuggingFaceTokenizer --tokenizer-model <yours>
torchrun --nnodes 8 --nproc-per-node 8 --node-rank "${NODE_RANK:-0}" --master-addr "${MASTER_ADDR:-localhost}" --master-port "${MASTER_PORT:-6000}" pretrain_gpt.py \
  --tensor-model-parallel-size 2 \
  --pipeline-model-parallel-size 4 \
  --num-layers-per-virtual-pipeline-stage 4 \
  --expert-model-parallel-size 8 \
  --expert-tensor-parallel-size 2 \
  --sequence-parallel \
  --use-distributed-optimizer \
  --overlap-grad-reduce \
  --overlap-param-gather \
  --micro-batch-size 1 \
  --global-batch-size 512 \
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
  --moe-grouped-gemm \
  --moe-router-load-balancing-type aux_loss \
  --moe-aux-loss-coeff 0.01 \
  --attention-backend flash \
  --mock-data \
  --tokenizer-type NullTokenizer \
  --vocab-size 32000
