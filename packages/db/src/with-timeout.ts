/** Resolves to the probe's answer, or false when it rejects or outlasts `timeoutMs`. */
export async function probe(run: () => Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([run().then(() => true, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
