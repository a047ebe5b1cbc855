import type { Redis } from 'ioredis';

interface Subscription {
  readonly onMessage: (message: string) => void;
}

/**
 * Fans messages of one subscriber connection out to callbacks. Redis is subscribed to a channel
 * while it has at least one callback; commands go out in order on one connection, so an
 * UNSUBSCRIBE racing a new SUBSCRIBE of the same channel still ends subscribed.
 */
export class RedisSubscriber {
  private readonly channels = new Map<string, Set<Subscription>>();

  constructor(
    private readonly connection: Redis,
    private readonly onError: (error: unknown) => void,
  ) {
    connection.on('message', (channel: string, message: string) => this.dispatch(channel, message));
  }

  async subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>> {
    const subscription: Subscription = { onMessage };
    let subscriptions = this.channels.get(channel);
    if (subscriptions === undefined) {
      subscriptions = new Set();
      this.channels.set(channel, subscriptions);
    }
    subscriptions.add(subscription);
    try {
      // Also sent when the channel is already subscribed: it resolves only once Redis has
      // confirmed, so the caller never races a SUBSCRIBE still in flight.
      await this.connection.subscribe(channel);
    } catch (error) {
      await this.remove(channel, subscription);
      throw error;
    }
    return () => this.remove(channel, subscription);
  }

  close(): Promise<void> {
    this.channels.clear();
    return quit(this.connection);
  }

  private async remove(channel: string, subscription: Subscription): Promise<void> {
    const current = this.channels.get(channel);
    if (current === undefined || !current.delete(subscription)) return;
    if (current.size > 0) return;
    this.channels.delete(channel);
    await this.connection.unsubscribe(channel).catch(this.onError);
  }

  private dispatch(channel: string, message: string): void {
    const subscriptions = this.channels.get(channel);
    if (subscriptions === undefined) return;
    for (const subscription of subscriptions) {
      try {
        subscription.onMessage(message);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}

/** QUIT when connected (flushes pending replies); otherwise drop the socket without waiting. */
export async function quit(connection: Redis): Promise<void> {
  if (connection.status === 'end') return;
  if (connection.status !== 'ready') {
    connection.disconnect();
    return;
  }
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
}
