# DeepSpeed launch for Llama 3 8B on 8 × NVIDIA A100 SXM4 80GB, from llm-train-planner: Megatron-DeepSpeed's pretrain_gpt.py with the config below.
# Run it on every node from a Megatron-DeepSpeed checkout (NODE_RANK 0, 1, …; MASTER_ADDR the first node); add your data, learning-rate and checkpoint flags.
# Every setting of the plan is expressed below.
cat > ds_config.json <<'EOF'
{
  "train_batch_size": 64,
  "train_micro_batch_size_per_gpu": 2,
  "gradient_accumulation_steps": 4,
  "bf16": {
    "enabled": true
  },
  "data_types": {
    "grad_accum_dtype": "bf16"
  },
  "zero_optimization": {
    "stage": 3,
    "offload_optimizer": {
      "device": "cpu",
      "pin_memory": true
    },
    "offload_param": {
      "device": "cpu",
      "pin_memory": true
    }
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
torchrun --nnodes 1 --nproc-per-node 8 pretrain_gpt.py \
  --tensor-model-parallel-size 1 \
  --pipeline-model-parallel-size 1 \
  --no-pipeline-parallel \
  --num-layers 32 \
  --hidden-size 4096 \
  --ffn-hidden-size 14336 \
  --num-attention-heads 32 \
  --num-key-value-heads 8 \
  --seq-length 4096 \
  --max-position-embeddings 4096 \
  --micro-batch-size 2 \
  --global-batch-size 64 \
  --train-samples 244140625 \
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
  --deepspeed-activation-checkpointing \
  --recompute-granularity full \
  --recompute-method uniform \
  --deepspeed \
  --deepspeed_config ds_config.json \
  --zero-stage 3
