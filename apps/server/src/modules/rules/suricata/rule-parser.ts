import { parseAddress, parsePort, type Parsed } from './addresses';
import { splitOptions, unquote } from './options';
import {
  attackIdsOf,
  needsValue,
  parseContent,
  parseDetectionFilter,
  parseFlowbits,
  parseMetadata,
  parseReference,
  parseThreshold,
  parseUnsigned,
  SINGLE_OPTIONS,
} from './rule-keywords';
import { RULE_ACTIONS, type Direction, type RuleAction, type RuleOption, type SuricataRule } from './rule-types';

/**
 * Protocols a rule header may name: the packet layers and the application-layer parsers
 * Suricata ships. A protocol not listed here is refused, as Suricata refuses it at load.
 */
export const RULE_PROTOCOLS: ReadonlySet<string> = new Set([
  'ip',
  'ipv4',
  'ip4',
  'ipv6',
  'ip6',
  'tcp',
  'tcp-pkt',
  'tcp-stream',
  'udp',
  'icmp',
  'icmpv4',
  'icmpv6',
  'sctp',
  'igmp',
  'pkthdr',
  'http',
  'http1',
  'http2',
  'ftp',
  'ftp-data',
  'tls',
  'ssl',
  'smb',
  'dcerpc',
  'dns',
  'doh2',
  'mdns',
  'smtp',
  'imap',
  'pop3',
  'ssh',
  'dhcp',
  'ike',
  'ikev2',
  'krb5',
  'nfs',
  'ntp',
  'tftp',
  'sip',
  'snmp',
  'rdp',
  'rfb',
  'mqtt',
  'modbus',
  'dnp3',
  'enip',
  'pgsql',
  'ldap',
  'quic',
  'websocket',
  'bittorrent-dht',
  'telnet',
  'template',
]);

const DIRECTIONS: readonly Direction[] = ['->', '<>', '=>'];

/** Splits the header into words; a bracketed group stays one word even with spaces inside. Null when a group is not closed. */
function headerWords(header: string): string[] | null {
  const words: string[] = [];
  let depth = 0;
  let word = '';
  for (const c of header) {
    if (c === '[') depth++;
    if (c === ']' && --depth < 0) return null;
    if (/\s/.test(c) && depth === 0) {
      if (word) words.push(word);
      word = '';
    } else word += c;
  }
  if (word) words.push(word);
  return depth === 0 ? words : null;
}

type RuleBody = Omit<SuricataRule, 'enabled' | 'text'>;

/** Reads the header: action, protocol, source, source port, direction, destination, destination port. */
function parseHeader(
  header: string,
): Parsed<Pick<RuleBody, 'action' | 'protocol' | 'src' | 'srcPort' | 'direction' | 'dst' | 'dstPort'>> {
  const words = headerWords(header);
  if (words === null)
    return { ok: false, reason: 'the brackets of a group in the header do not balance: each "[" needs its "]"' };
  const action = words[0] ?? '';
  if (!(RULE_ACTIONS as readonly string[]).includes(action)) {
    return { ok: false, reason: `"${action.slice(0, 40)}" is not a rule action (use ${RULE_ACTIONS.join(', ')})` };
  }
  if (words.length !== 7) {
    return {
      ok: false,
      reason: `the header must be "action protocol source port direction destination port" (7 parts), this one has ${words.length}: "${header.trim().slice(0, 120)}"`,
    };
  }
  const [, protocol, srcText, srcPortText, directionText, dstText, dstPortText] = words as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (!RULE_PROTOCOLS.has(protocol.toLowerCase()))
    return { ok: false, reason: `"${protocol}" is not a protocol Suricata knows` };
  if (!(DIRECTIONS as readonly string[]).includes(directionText)) {
    return { ok: false, reason: `"${directionText}" is not a direction (use ->, <> or =>)` };
  }
  const src = parseAddress(srcText);
  if (!src.ok) return { ok: false, reason: `source address: ${src.reason}` };
  const srcPort = parsePort(srcPortText);
  if (!srcPort.ok) return { ok: false, reason: `source port: ${srcPort.reason}` };
  const dst = parseAddress(dstText);
  if (!dst.ok) return { ok: false, reason: `destination address: ${dst.reason}` };
  const dstPort = parsePort(dstPortText);
  if (!dstPort.ok) return { ok: false, reason: `destination port: ${dstPort.reason}` };
  return {
    ok: true,
    value: {
      action: action as RuleAction,
      protocol: protocol.toLowerCase(),
      src: src.value,
      srcPort: srcPort.value,
      direction: directionText as Direction,
      dst: dst.value,
      dstPort: dstPort.value,
    },
  };
}

/** Parses one rule written on one line (continuations already joined). */
export function parseRule(text: string): Parsed<SuricataRule> {
  const open = text.indexOf('(');
  if (open < 0) return { ok: false, reason: 'the rule has no options: they go in parentheses after the header' };
  const trimmed = text.trimEnd();
  if (!trimmed.endsWith(')')) return { ok: false, reason: 'the rule does not end with ")" after its last option' };
  const header = parseHeader(text.slice(0, open));
  if (!header.ok) return header;
  const split = splitOptions(trimmed.slice(open + 1, -1));
  if (!split.ok) return split;
  const options = split.value;

  const rule: RuleBody = {
    ...header.value,
    options,
    msg: null,
    sid: 0,
    rev: null,
    gid: 1,
    classtype: null,
    priority: null,
    metadata: {},
    mitreTechniqueIds: [],
    mitreTacticIds: [],
    references: [],
    threshold: null,
    detectionFilter: null,
    flowbits: [],
    noalert: false,
    target: null,
    contents: [],
  };
  const seen = new Set<string>();
  for (const option of options) {
    if ((SINGLE_OPTIONS as readonly string[]).includes(option.name)) {
      if (seen.has(option.name)) return { ok: false, reason: `${option.name} is given twice` };
      seen.add(option.name);
    }
    const applied = applyOption(rule, option);
    if (!applied.ok) return applied;
  }
  if (!seen.has('sid')) return { ok: false, reason: 'the rule has no sid: every rule needs a unique sid:N;' };
  if (rule.threshold && rule.detectionFilter) {
    return { ok: false, reason: 'a rule cannot have both threshold and detection_filter' };
  }
  const attack = attackIdsOf(rule.metadata);
  rule.mitreTechniqueIds = attack.techniques;
  rule.mitreTacticIds = attack.tactics;
  return { ok: true, value: { ...rule, enabled: true, text: text.trim() } };
}

function applyOption(rule: RuleBody, option: RuleOption): Parsed<null> {
  const { name } = option;
  const done: Parsed<null> = { ok: true, value: null };
  if (name === 'noalert') {
    rule.noalert = true;
    return done;
  }
  const known = [
    'msg',
    'sid',
    'rev',
    'gid',
    'priority',
    'classtype',
    'metadata',
    'reference',
    'threshold',
    'detection_filter',
    'flowbits',
    'target',
    'content',
  ];
  // Keywords this parser does not interpret (flow, pcre, sticky buffers…) are kept as written.
  if (!known.includes(name)) return done;
  const present = needsValue(option);
  if (!present.ok) return present;
  const value = present.value;
  switch (name) {
    case 'msg': {
      const msg = unquote(value);
      if (!msg.ok) return { ok: false, reason: `msg: ${msg.reason}` };
      rule.msg = msg.value;
      return done;
    }
    case 'sid':
    case 'rev':
    case 'gid': {
      const n = parseUnsigned(name, value, name === 'rev' ? 0 : 1);
      if (!n.ok) return n;
      rule[name] = n.value;
      return done;
    }
    case 'priority': {
      const n = parseUnsigned('priority', value, 1, 255);
      if (!n.ok) return n;
      rule.priority = n.value;
      return done;
    }
    case 'classtype':
      if (!/^[A-Za-z0-9_-]+$/.test(value))
        return { ok: false, reason: `"${value.slice(0, 60)}" is not a classtype name` };
      rule.classtype = value;
      return done;
    case 'metadata':
      return parseMetadata(value, rule.metadata);
    case 'reference': {
      const ref = parseReference(value);
      if (!ref.ok) return ref;
      rule.references.push(ref.value);
      return done;
    }
    case 'threshold': {
      const t = parseThreshold(value);
      if (!t.ok) return t;
      rule.threshold = t.value;
      return done;
    }
    case 'detection_filter': {
      const d = parseDetectionFilter(value);
      if (!d.ok) return d;
      rule.detectionFilter = d.value;
      return done;
    }
    case 'flowbits': {
      const f = parseFlowbits(value);
      if (!f.ok) return f;
      rule.flowbits.push(f.value);
      if (f.value.command === 'noalert') rule.noalert = true;
      return done;
    }
    case 'target':
      if (value !== 'src_ip' && value !== 'dest_ip') {
        return { ok: false, reason: `target must be src_ip or dest_ip, not "${value.slice(0, 40)}"` };
      }
      rule.target = value;
      return done;
    case 'content': {
      const c = parseContent(value);
      if (!c.ok) return c;
      rule.contents.push(c.value);
      return done;
    }
  }
  return done;
}
