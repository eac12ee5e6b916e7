/**
 * Runs `rounds` of every variant, one session each, rotating the order every round so that drift (a page
 * close, the machine's load) hits each variant alike; the first `warmup` rounds are run and dropped.
 * Resolves with each variant's samples, in the order they were taken.
 */
export async function interleave<V extends string, S>(
  variants: readonly V[],
  { warmup, rounds }: { warmup: number; rounds: number },
  run: (variant: V) => Promise<S>,
): Promise<Record<V, S[]>> {
  const samples = Object.fromEntries(variants.map((variant) => [variant, [] as S[]])) as Record<V, S[]>;
  for (let i = 0; i < warmup + rounds; i++) {
    for (let k = 0; k < variants.length; k++) {
      const variant = variants[(i + k) % variants.length]!;
      const sample = await run(variant);
      if (i >= warmup) samples[variant].push(sample);
    }
  }
  return samples;
}
