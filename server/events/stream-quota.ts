// How many live-event streams one token, one user and one organization may
// hold open on this BFF process. A tab holds one stream, and briefly two
// while it reconnects; a user may have many tabs and devices. Without caps, 2,000
// streams opened with one token were all accepted, each with its timers and
// subscription.

export interface StreamQuotaLimits {
  perToken: number;
  perUser: number;
  perOrganization: number;
}

export const DEFAULT_STREAM_LIMITS: StreamQuotaLimits = { perToken: 3, perUser: 30, perOrganization: 1000 };

export interface StreamOwner {
  organizationId: string;
  userId: string;
  /** The host token's id; empty for a standalone session (its streams count per user). */
  jti: string;
}

export type StreamAdmission = { admitted: true; release: () => void } | { admitted: false; scope: keyof StreamQuotaLimits };

export class StreamQuota {
  private readonly open = new Map<string, number>();

  constructor(private readonly limits: StreamQuotaLimits = DEFAULT_STREAM_LIMITS) {}

  tryOpen(owner: StreamOwner): StreamAdmission {
    const keys: [keyof StreamQuotaLimits, string][] = [
      ["perOrganization", `org:${owner.organizationId}`],
      ["perUser", `user:${owner.organizationId}:${owner.userId}`],
    ];
    if (owner.jti !== "") keys.push(["perToken", `token:${owner.jti}`]);
    for (const [scope, key] of keys) {
      if ((this.open.get(key) ?? 0) >= this.limits[scope]) return { admitted: false, scope };
    }
    for (const [, key] of keys) this.open.set(key, (this.open.get(key) ?? 0) + 1);
    let released = false;
    return {
      admitted: true,
      release: () => {
        if (released) return;
        released = true;
        for (const [, key] of keys) {
          const left = (this.open.get(key) ?? 1) - 1;
          if (left <= 0) this.open.delete(key);
          else this.open.set(key, left);
        }
      },
    };
  }
}
