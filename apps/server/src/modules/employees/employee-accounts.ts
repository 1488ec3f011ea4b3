/**
 * How account names are matched. Accounts are stored in lower case as written (`corp\jdoe`,
 * `jdoe@corp.example`, `jdoe`); a user name seen in an event is looked up in each form it may have
 * been stored in, the most specific first, so `CORP` + `JDoe` finds `corp\jdoe`, else `jdoe`.
 */

/** An account as it is stored: trimmed, lower case. */
export function normaliseAccount(account: string): string {
  return account.trim().toLowerCase();
}

/** The stored forms a user name (with its domain, when the event gives one) may match, most specific first. */
export function accountCandidates(name: string, domain: string | null): string[] {
  const user = normaliseAccount(name);
  if (user === '') return [];
  const out: string[] = [];
  const add = (value: string) => {
    if (value !== '' && !out.includes(value)) out.push(value);
  };
  const slash = user.lastIndexOf('\\');
  if (slash >= 0) {
    add(user);
    add(user.slice(slash + 1));
    return out;
  }
  const at = user.indexOf('@');
  if (at > 0) {
    add(user);
    add(user.slice(0, at));
    return out;
  }
  const realm = domain === null ? '' : normaliseAccount(domain);
  if (realm !== '' && realm !== '-') {
    add(`${realm}\\${user}`);
    if (realm.includes('.')) add(`${user}@${realm}`);
  }
  add(user);
  return out;
}
