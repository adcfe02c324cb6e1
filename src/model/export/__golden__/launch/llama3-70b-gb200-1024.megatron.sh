# Megatron-LM launch for Llama 3 70B on 1024 × NVIDIA GB200 NVL72 (per GPU), from llm-train-planner.
# Run it on every node from a Megatron-LM checkout (NODE_RANK 0, 1, …; MASTER_ADDR the first node); add your learning-rate and checkpoint flags.
# Data parallel 64 = 1024 GPUs / (TP 4 × PP 4 × CP 1): Megatron-LM derives it from the world size.
# Not expressible here (set elsewhere, or accept the difference):
#   - data and tokenizer: the command trains on mock data with the NullTokenizer; for real data replace --mock-data with --data-path and the tokenizer flags with --tokenizer-type HuggingFaceTokenizer --tokenizer-model <yours>
torchrun --nnodes 256 --nproc-per-node 4 --node-rank "${NODE_RANK:-0}" --master-addr "${MASTER_ADDR:-localhost}" --master-port "${MASTER_PORT:-6000}" pretrain_gpt.py \
  --tensor-model-parallel-size 4 \
  --pipeline-model-parallel-size 4 \
  --sequence-parallel \
  --use-distributed-optimizer \
  --overlap-grad-reduce \
  --overlap-param-gather \
  --micro-batch-size 1 \
  --global-batch-size 1024 \
  --seq-length 8192 \
  --max-position-embeddings 8192 \
  --train-samples 122070313 \
  --num-layers 80 \
  --hidden-size 8192 \
  --ffn-hidden-size 28672 \
  --num-attention-heads 64 \
  --group-query-attention \
  --num-query-groups 8 \
  --normalization RMSNorm \
  --position-embedding-type rope \
  --disable-bias-linear \
  --swiglu \
  --untie-embeddings-and-output-weights \
  --bf16 \
  --fp8-format hybrid \
  --optimizer adam \
  --recompute-granularity selective \
  --recompute-modules core_attn \
  --cross-entropy-loss-fusion \
  --fp8-recipe delayed \
  --attention-backend flash \
  --mock-data \
  --tokenizer-type NullTokenizer \
  --vocab-size 128256
