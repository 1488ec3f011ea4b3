import { ActionIcon, Avatar, Burger, Group, Menu, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconDevices, IconLogout, IconMoon, IconSun, IconUser } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link } from '../../lib/router';
import { BrandMark } from '../../components/ui/brand-mark';
import { LanguageFlag } from '../../components/ui/flags';
import { currentLanguage, languages, type Language } from '../../lib/i18n';
import {
  changeLocale,
  changeTheme,
  displayName,
  labelOf,
  signOut,
  useCurrentUser,
  useSignedInUser,
} from '../../lib/session';
import { useVigilTheme } from '../../lib/theme';
import { findRoute } from '../route-map';

/** The language menu: the current flag, and each language by its own name. */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <Menu position="bottom-end" width={170} withinPortal>
      <Menu.Target>
        <UnstyledButton
          className="vigil-header__control"
          aria-label={t('header.language')}
          data-testid="language-switch"
        >
          <LanguageFlag language={language} />
          <Text span size="sm" fw={600} tt="uppercase">
            {language}
          </Text>
          <IconChevronDown size={14} />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {languages.map((item: Language) => (
          <Menu.Item
            key={item}
            leftSection={<LanguageFlag language={item} />}
            onClick={() => void changeLocale(item)}
            data-active={item === language || undefined}
            data-testid={`language-${item}`}
          >
            {t(`languages.${item}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** Dark ⇄ light; the choice is kept with the user. */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const { theme } = useVigilTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  const label = t(next === 'light' ? 'header.lightTheme' : 'header.darkTheme');
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={label}
        data-testid="theme-switch"
        onClick={() => void changeTheme(next)}
      >
        {theme === 'dark' ? <IconSun size={19} stroke={1.7} /> : <IconMoon size={19} stroke={1.7} />}
      </ActionIcon>
    </Tooltip>
  );
}

function UserMenu() {
  const { t } = useTranslation();
  const user = useSignedInUser();
  const [leaving, setLeaving] = useState(false);
  const name = displayName(user);
  const profile = findRoute('profile');
  const sessions = findRoute('sessions');
  return (
    <Menu position="bottom-end" width={220} withinPortal>
      <Menu.Target>
        <UnstyledButton className="vigil-header__control vigil-header__user" data-testid="user-menu">
          <Avatar size={28} radius="xl" color="vigil" variant="filled">
            {name.slice(0, 1).toUpperCase()}
          </Avatar>
          <Text span size="sm" fw={600} data-testid="current-user" className="vigil-header__user-name">
            {name}
          </Text>
          <IconChevronDown size={14} />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user.email ?? user.username}</Menu.Label>
        {profile?.page && (
          <Menu.Item component={Link} to={profile.path} leftSection={<IconUser size={16} />}>
            {t('nav.profile')}
          </Menu.Item>
        )}
        {sessions?.page && (
          <Menu.Item component={Link} to={sessions.path} leftSection={<IconDevices size={16} />}>
            {t('nav.sessions')}
          </Menu.Item>
        )}
        {(profile?.page || sessions?.page) && <Menu.Divider />}
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} />}
          disabled={leaving}
          onClick={() => {
            setLeaving(true);
            signOut().catch(() => setLeaving(false));
          }}
        >
          {t('header.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The bar across the top: the label, language, theme and the user's menu. */
export function Header({ navOpened, onToggleNav }: { navOpened: boolean; onToggleNav: () => void }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" className="vigil-header">
      <Group gap="sm" wrap="nowrap">
        <Burger opened={navOpened} onClick={onToggleNav} hiddenFrom="sm" size="sm" aria-label={t('header.menu')} />
        <Link to="/" className="vigil-header__brand">
          <BrandMark size={26} />
          <span className="vigil-header__label" data-testid="app-label">
            {labelOf(user)}
          </span>
        </Link>
      </Group>
      <Group gap={6} wrap="nowrap">
        <LanguageSwitch />
        <ThemeSwitch />
        <UserMenu />
      </Group>
    </Group>
  );
}
