import { type ActualUsage, type Reservation, unlimitedReservation } from '@svc/billing';

/**
 * A request's admission, ended exactly once: settled with what the request spent when it spent
 * anything (an answer, a cache hit, a paid draft, an answer a policy refused), released otherwise.
 * The chat stage ends it in its one `finally`; a stream, which outlives that, ends it as it ends.
 */
export class RequestSpend {
  private spent: ActualUsage | undefined;

  constructor(private readonly reservation: Reservation) {}

  /** `x-ratelimit-*` headers of the admission. */
  get headers(): Readonly<Record<string, string>> {
    return this.reservation.headers;
  }

  /** Whether a spend was recorded (the first one that names the request's calls wins). */
  get recorded(): boolean {
    return this.spent !== undefined;
  }

  /** What the request spent: the sum of every call it paid for, settled when it ends. */
  record(spent: ActualUsage): void {
    this.spent = spent;
  }

  /** Streamed tokens as they are produced (TPM), before the stream's spend is known. */
  charge(tokens: number, costUsd: number): void {
    void this.reservation.charge(tokens, costUsd);
  }

  /** Whether the admission holds anything to settle (a gateway without limits holds nothing). */
  get limited(): boolean {
    return this.reservation !== unlimitedReservation;
  }

  end(): void {
    if (this.spent) void this.reservation.settle(this.spent);
    else void this.reservation.release();
  }
}
