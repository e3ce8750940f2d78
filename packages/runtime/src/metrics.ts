import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export interface MetricOptions<Label extends string> {
  name: string;
  help: string;
  labelNames?: readonly Label[];
}

export interface Metrics {
  /** The service's own registry; `/metrics` of its ops server renders it. */
  readonly registry: Registry;
  /** Creates a counter in the registry, or returns the one already registered under `name`. */
  counter<Label extends string = never>(options: MetricOptions<Label>): Counter<Label>;
  histogram<Label extends string = never>(
    options: MetricOptions<Label> & { buckets?: number[] },
  ): Histogram<Label>;
  /** `collect`, when given, runs at each scrape to set the gauge (memory read from /proc, a pool's size). */
  gauge<Label extends string = never>(
    options: MetricOptions<Label> & { collect?: (gauge: Gauge<Label>) => void | Promise<void> },
  ): Gauge<Label>;
}

/**
 * One Prometheus registry per service with Node's process metrics; every series carries the
 * `service` label, so several services in one process (or one dashboard) stay apart.
 */
export function createMetrics({ service }: { service: string }): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });

  // Several servers or consumers of one service share its registry; registering the same
  // name twice would throw, so a second request for a name gets the existing metric.
  function reuse<M>(name: string, create: () => M): M {
    return (registry.getSingleMetric(name) as M | undefined) ?? create();
  }

  return {
    registry,
    counter: (options) =>
      reuse(
        options.name,
        () => new Counter({ ...options, labelNames: options.labelNames ?? [], registers: [registry] }),
      ),
    histogram: (options) =>
      reuse(
        options.name,
        () => new Histogram({ ...options, labelNames: options.labelNames ?? [], registers: [registry] }),
      ),
    gauge: ({ collect, ...options }) =>
      reuse(
        options.name,
        () =>
          new Gauge({
            ...options,
            labelNames: options.labelNames ?? [],
            registers: [registry],
            ...(collect
              ? {
                  collect() {
                    return collect(this);
                  },
                }
              : {}),
          }),
      ),
  };
}
