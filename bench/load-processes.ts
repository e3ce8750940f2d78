// What each service process of the load bench holds and spends, read from /proc: resident memory
// (VmRSS) and CPU time, each summed over the process and everything it started (the crawler's
// Chromium), with the descendants' share apart.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ; 100 on Linux). */
const TICKS_PER_SECOND = 100;

export interface ProcessUsage {
  /** VmRSS of the process and all its descendants, MiB. */
  rssMb: number;
  /** VmRSS of its descendants alone (the crawler's Chromium processes), MiB. */
  childRssMb: number;
  /** CPU seconds the process tree has used, counting children that have exited and were reaped. */
  cpuSeconds: number;
  /** CPU seconds of its descendants alone. */
  childCpuSeconds: number;
  /** Processes in the tree. */
  processes: number;
}

interface Proc {
  ppid: number;
  cpuSeconds: number;
}

function readProcs(): Map<number, Proc> {
  const procs = new Map<number, Proc>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name (field 2) may hold spaces and parentheses; the fields after it do not.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // From field 3 (state) on: ppid is field 4; utime, stime, cutime, cstime fields 14 to 17.
      const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
      procs.set(Number(entry), { ppid: Number(fields[1]), cpuSeconds: ticks / TICKS_PER_SECOND });
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return procs;
}

function rssMb(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Usage of each process tree rooted at the given pids, by name. */
export function sampleProcesses(roots: Map<string, number>): Record<string, ProcessUsage> {
  const procs = readProcs();
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of procs) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const usage: Record<string, ProcessUsage> = {};
  for (const [name, root] of roots) {
    const own = procs.get(root);
    if (!own) continue;
    const descendants: number[] = [];
    const queue = [...(children.get(root) ?? [])];
    while (queue.length > 0) {
      const pid = queue.pop() as number;
      descendants.push(pid);
      queue.push(...(children.get(pid) ?? []));
    }
    const childRss = descendants.reduce((sum, pid) => sum + rssMb(pid), 0);
    const childCpu = descendants.reduce((sum, pid) => sum + (procs.get(pid)?.cpuSeconds ?? 0), 0);
    usage[name] = {
      rssMb: rssMb(root) + childRss,
      childRssMb: childRss,
      cpuSeconds: own.cpuSeconds + childCpu,
      childCpuSeconds: childCpu,
      processes: 1 + descendants.length,
    };
  }
  return usage;
}

/** Per process tree, the share of one core used between two samples taken `seconds` apart, in %. */
export function cpuPercent(
  before: Record<string, ProcessUsage>,
  after: Record<string, ProcessUsage>,
  seconds: number,
): Record<string, { total: number; children: number }> {
  const percent = (value: number) => Math.round((value / seconds) * 100);
  const shares: Record<string, { total: number; children: number }> = {};
  for (const [name, end] of Object.entries(after)) {
    const start = before[name];
    if (!start) continue;
    shares[name] = {
      total: percent(end.cpuSeconds - start.cpuSeconds),
      // Chromium renderers come and go; the reaped ones' time lands in the crawler's own cutime.
      children: percent(Math.max(0, end.childCpuSeconds - start.childCpuSeconds)),
    };
  }
  return shares;
}
