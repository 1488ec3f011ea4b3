import { EndpointGenerator } from './endpoint';
import { scenarioFiles, type DemoFile } from './files';
import { MailGenerator, type DemoMail } from './mail';
import { NetworkGenerator } from './network';
import { Random } from './random';
import { CUSTOMERS, scaleSizes, type DemoCustomer, type DemoScale } from './scenario';
import type { TimedLine } from './timeline';

export interface DemoOptions {
  /** Same seed (and the same `now`) → the same data. */
  seed: number;
  scale: DemoScale;
  /** The moment the traffic ends (ms since the epoch); it reaches 14 days back from here. */
  now: number;
}

/** Everything one customer's sensors, agents and mail relay send, oldest first. */
export interface CustomerTraffic {
  customer: DemoCustomer;
  network: TimedLine[];
  endpoint: TimedLine[];
  mail: DemoMail[];
}

export interface DemoDataset {
  files: Map<string, DemoFile>;
  customers: CustomerTraffic[];
}

const byTime = <T extends { at: number }>(items: T[], now: number): T[] =>
  items.filter((item) => item.at <= now).sort((a, b) => a.at - b.at);

/** Generates the demo traffic of both customers. Deterministic for a seed and a `now`. */
export function generateDemo(options: DemoOptions): DemoDataset {
  const root = new Random(options.seed);
  const files = scenarioFiles(root.fork('files'));
  const size = scaleSizes[options.scale];
  const beacons = options.scale === 'small' ? 4 : 36;
  const customers = CUSTOMERS.map((customer) => {
    const random = root.fork(customer.key);
    const network = new NetworkGenerator(random.fork('network'), customer, options.now, files);
    network.scenario(beacons);
    network.background(Math.max(0, size.network - network.lines.length));
    network.leases();
    const endpoint = new EndpointGenerator(random.fork('endpoint'), customer, options.now, files);
    endpoint.scenario();
    endpoint.background(Math.max(0, size.endpoint - endpoint.lines.length));
    const mail = new MailGenerator(random.fork('mail'), customer, options.now, files);
    mail.scenario();
    mail.background(size.mail);
    return {
      customer,
      network: byTime(network.lines, options.now),
      endpoint: byTime(endpoint.lines, options.now),
      mail: byTime(mail.mails, options.now),
    };
  });
  return { files, customers };
}

/** Splits lines into request bodies of at most `size` lines, as a sensor batches its output. */
export function batches(lines: readonly TimedLine[], size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i += size) {
    out.push(
      lines
        .slice(i, i + size)
        .map((l) => l.line)
        .join('\n') + '\n',
    );
  }
  return out;
}
