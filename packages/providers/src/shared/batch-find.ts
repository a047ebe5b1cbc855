/** How far before a search's `since` a provider's batch list is read: the provider's clock may be behind the gateway's. */
export const CLOCK_SLACK_SECONDS = 300;

/** A batch as a provider's list shows it: its id and creation time (unix seconds). */
export interface ListedBatch {
  id: string;
  createdAt: number;
}

/** One page of a provider's batch list, newest first, and the cursor of the next (older) page. */
export interface ListedPage<T extends ListedBatch> {
  data: readonly T[];
  next: string | undefined;
}

/**
 * The first batch `match` accepts, reading one key's list (`page(after)`) newest first a page at
 * a time, back to `since` less {@link CLOCK_SLACK_SECONDS}.
 */
export async function findListed<T extends ListedBatch>(page: (after: string | undefined) => Promise<ListedPage<T>>, since: number, match: (batch: T) => boolean | Promise<boolean>): Promise<T | undefined> {
  const oldest = since - CLOCK_SLACK_SECONDS;
  for (let after: string | undefined; ; ) {
    const listed = await page(after);
    for (const batch of listed.data) {
      if (batch.createdAt < oldest) return undefined;
      if (await match(batch)) return batch;
    }
    if (listed.next === undefined) return undefined;
    after = listed.next;
  }
}
