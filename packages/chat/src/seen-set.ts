/**
 * The ids of the inbound callbacks already taken (LINE's webhookEventId, Telegram's update_id),
 * so a captured request sent again does nothing. Bounded: the oldest ids are forgotten first;
 * a replay older than the bound is still refused by its age where the platform dates its
 * events (LINE), and Telegram's ids only grow. Kept per process: each gateway replica keeps its
 * own.
 */
export class SeenSet {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity = 10_000) {}

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    this.ids.delete(id);
    this.ids.add(id);
    // A Set iterates in insertion order: the first is the oldest.
    while (this.ids.size > this.capacity) {
      const oldest = this.ids.values().next().value;
      if (oldest === undefined) break;
      this.ids.delete(oldest);
    }
  }
}
