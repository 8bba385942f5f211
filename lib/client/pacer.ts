/** The run has made as many requests as it may: the live service's daily allowance is finite. */
export class BudgetExhausted extends Error {
  constructor(budget: number) {
    super(
      `The request budget of ${budget} requests for this worker is spent (CLM_REQUEST_BUDGET); the rest is not run`,
    );
    this.name = 'BudgetExhausted';
  }
}

/** Keeps one worker's requests under a rate and within a budget. */
export class Pacer {
  private next = 0;
  used = 0;

  constructor(
    private readonly perSecond: number,
    private readonly budget: number,
  ) {}

  async wait(): Promise<void> {
    if (this.used >= this.budget) throw new BudgetExhausted(this.budget);
    this.used++;
    if (!Number.isFinite(this.perSecond)) return;
    const now = performance.now();
    const at = Math.max(now, this.next);
    this.next = at + 1000 / this.perSecond;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }
}
