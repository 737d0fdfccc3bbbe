import type { McpProcessLimit } from "../errors";

/** Caps on local (stdio) server processes; 0 means no cap. */
export interface ProcessLimits {
  total: number;
  perOrganization: number;
}

/** A process's place under the limits, held from before it starts until it has exited. */
export interface ProcessSlot {
  readonly orgId: string;
  /** Frees the place; later calls do nothing. */
  release(): void;
}

/**
 * Counts local server processes, in total and per organization. A place is taken before the process is spawned,
 * so processes still starting count too, and two concurrent starts cannot both take the last place.
 */
export class ProcessSlots {
  private total = 0;
  private readonly byOrg = new Map<string, number>();

  constructor(readonly limits: ProcessLimits) {}

  get count(): number {
    return this.total;
  }

  countOf(orgId: string): number {
    return this.byOrg.get(orgId) ?? 0;
  }

  /** The limit one more process of the organization would pass, the organization's checked first. */
  reached(orgId: string): McpProcessLimit | undefined {
    const { perOrganization, total } = this.limits;
    if (perOrganization > 0 && this.countOf(orgId) >= perOrganization) return "organization";
    if (total > 0 && this.total >= total) return "server";
    return undefined;
  }

  max(limit: McpProcessLimit): number {
    return limit === "organization" ? this.limits.perOrganization : this.limits.total;
  }

  take(orgId: string): ProcessSlot {
    this.total++;
    this.byOrg.set(orgId, this.countOf(orgId) + 1);
    let held = true;
    return {
      orgId,
      release: () => {
        if (!held) return;
        held = false;
        this.total--;
        const left = this.countOf(orgId) - 1;
        if (left > 0) this.byOrg.set(orgId, left);
        else this.byOrg.delete(orgId);
      },
    };
  }
}
