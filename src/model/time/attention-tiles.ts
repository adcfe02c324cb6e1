// The key tiles a sliding-window attention kernel really runs. FlashAttention walks each
// block of kBlockM queries over whole blocks of kBlockN keys, from the first block the
// window reaches to the block holding the last query (FlashAttention-3
// hopper/block.h @fa4-v4.0.0.beta27, BlockMN::get_n_block_min_max: n_block_min =
// (m_block·kBlockM − window_size_left) / kBlockN, n_block_max = ceil((m_block + 1)·kBlockM
// / kBlockN)); a key block only partly inside the window is computed whole and masked.
// With a small window that is most of the work: GPT-OSS's 128-token window on 128 × 128
// tiles runs 2 key blocks, 256 keys, for queries that keep 126 on average.

/**
 * Query and key tile of the attention kernels, tokens: FlashAttention-3's forward tile
 * for causal or local attention with head dimension 65 to 128 on Hopper
 * (hopper/tile_size.h @fa4-v4.0.0.beta27, tile_size_fwd_sm90: {128, 128}); FlashAttention-2
 * also walks 128-query blocks. cuDNN, Transformer Engine's default on Hopper and later,
 * does not publish its tiles; the same size is assumed.
 */
export const ATTENTION_TILE_TOKENS = 128;

/**
 * Mean keys per query that a causal `window`-token sliding-window kernel computes over a
 * `seqLen`-token sequence (window_size_left = window − 1, as Megatron-Bridge maps HF's
 * sliding_window: gpt_oss_bridge.py @v0.5.0 `window_size = (sliding_window − 1, 0)`).
 */
export function windowKernelKeyTokens(window: number, seqLen: number, tile = ATTENTION_TILE_TOKENS): number {
  const keyBlocks = Math.ceil(seqLen / tile);
  let keys = 0;
  for (let first = 0; first < seqLen; first += tile) {
    const rows = Math.min(tile, seqLen - first);
    const lastBlock = Math.min(Math.ceil((first + tile) / tile), keyBlocks);
    const firstBlock = Math.max(0, Math.floor((first - (window - 1)) / tile));
    keys += rows * tile * (lastBlock - firstBlock);
  }
  return keys / seqLen;
}
