# DeepSpeed launch for Llama 3 70B on 1024 × NVIDIA GB200 NVL72 (per GPU), from llm-train-planner: Megatron-DeepSpeed's pretrain_gpt.py with the config below.
# Run it on every node from a Megatron-DeepSpeed checkout (NODE_RANK 0, 1, …; MASTER_ADDR the first node); add your data, learning-rate and checkpoint flags.
# Not expressible here (set elsewhere, or accept the difference):
#   - fp8 matmuls: not in Megatron-DeepSpeed; bf16 is written
cat > ds_config.json <<'EOF'
{
  "train_batch_size": 1024,
  "train_micro_batch_size_per_gpu": 1,
  "gradient_accumulation_steps": 16,
  "bf16": {
    "enabled": true
  },
  "data_types": {
    "grad_accum_dtype": "fp32"
  },
  "zero_optimization": {
    "stage": 1
  },
  "optimizer": {
    "type": "AdamW"
  }
}
EOF
torchrun --nnodes 256 --nproc-per-node 4 --node-rank "${NODE_RANK:-0}" --master-addr "${MASTER_ADDR:-localhost}" --master-port "${MASTER_PORT:-6000}" pretrain_gpt.py \
  --tensor-model-parallel-size 4 \
  --pipeline-model-parallel-size 4 \
  --sequence-parallel \
  --num-layers 80 \
  --hidden-size 8192 \
  --ffn-hidden-size 28672 \
  --num-attention-heads 64 \
  --num-key-value-heads 8 \
  --seq-length 8192 \
  --max-position-embeddings 8192 \
  --micro-batch-size 1 \
  --global-batch-size 1024 \
  --train-samples 122070313 \
  --use-rotary-position-embeddings \
  --normalization rmsnorm \
  --disable-bias-linear \
  --swiglu \
  --untie-embeddings-and-output-weights \
  --tokenizer-type NullTokenizer \
  --vocab-size 128256 \
  --bf16 \
  --optimizer adam \
  --use-flash-attn-v2 \
  --recompute-granularity selective \
  --deepspeed \
  --deepspeed_config ds_config.json \
  --zero-stage 1
