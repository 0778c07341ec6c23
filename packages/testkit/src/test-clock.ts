/** The service's clock in a test: real time unless a test pins it. */
export interface TestClock {
  now(): Date;
  set(instant: Date | string): void;
  advance(ms: number): void;
  reset(): void;
}

export function testClock(): TestClock {
  let pinned: Date | undefined;
  return {
    now: () => (pinned ? new Date(pinned) : new Date()),
    set(instant) {
      pinned = new Date(instant);
    },
    advance(ms) {
      pinned = new Date((pinned ?? new Date()).getTime() + ms);
    },
    reset() {
      pinned = undefined;
    },
  };
}
