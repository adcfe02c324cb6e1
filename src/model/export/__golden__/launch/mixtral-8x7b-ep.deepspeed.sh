# DeepSpeed launch for Mixtral 8x7B on 64 × NVIDIA H100 SXM5 80GB, from llm-train-planner: Megatron-DeepSpeed's pretrain_gpt.py with the config below.
# Run it on every node from a Megatron-DeepSpeed checkout (NODE_RANK 0, 1, …; MASTER_ADDR the first node); add your data, learning-rate and checkpoint flags.
# Not expressible here (set elsewhere, or accept the difference):
#   - 2 virtual pipeline stages: DeepSpeed's pipeline engine does not interleave
#   - fp8 matmuls: not in Megatron-DeepSpeed; bf16 is written
cat > ds_config.json <<'EOF'
{
  "train_batch_size": 512,
  "train_micro_batch_size_per_gpu": 1,
  "gradient_accumulation_steps": 64,
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
  },
  "activation_checkpointing": {
    "partition_activations": false,
    "cpu_checkpointing": false,
    "contiguous_memory_optimization": false,
    "synchronize_checkpoint_boundary": false
  }
}
EOF
torchrun --nnodes 8 --nproc-per-node 8 --node-rank "${NODE_RANK:-0}" --master-addr "${MASTER_ADDR:-localhost}" --master-port "${MASTER_PORT:-6000}" pretrain_gpt.py \
  --tensor-model-parallel-size 2 \
  --pipeline-model-parallel-size 4 \
  --sequence-parallel \
  --num-experts 8 \
  --topk 2 \
  --moe-expert-parallel-size 8 \
  --create-moe-param-group \
  --num-layers 32 \
  --hidden-size 4096 \
  --ffn-hidden-size 14336 \
  --num-attention-heads 32 \
  --num-key-value-heads 8 \
  --seq-length 4096 \
  --max-position-embeddings 4096 \
  --micro-batch-size 1 \
  --global-batch-size 512 \
  --train-samples 244140625 \
  --use-rotary-position-embeddings \
  --normalization rmsnorm \
  --disable-bias-linear \
  --swiglu \
  --untie-embeddings-and-output-weights \
  --tokenizer-type NullTokenizer \
  --vocab-size 32000 \
  --bf16 \
  --optimizer adam \
  --use-flash-attn-v2 \
  --deepspeed-activation-checkpointing \
  --recompute-granularity full \
  --recompute-method uniform \
  --deepspeed \
  --deepspeed_config ds_config.json \
  --zero-stage 1
