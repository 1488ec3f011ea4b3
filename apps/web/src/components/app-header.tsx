import { BrandMark } from './brand-mark';

interface AppHeaderProps {
  userName: string;
  signingOut: boolean;
  onSignOut: () => void;
}

/** The bar across the top of the signed-in console: product, who is signed in, sign-out. */
export function AppHeader({ userName, signingOut, onSignOut }: AppHeaderProps) {
  return (
    <header className="app-header">
      <div className="app-header__brand">
        <BrandMark />
        <span className="app-header__product">
          Vigil <span className="app-header__product-suffix">Managed XDR</span>
        </span>
      </div>
      <div className="app-header__user">
        <span className="app-header__avatar" aria-hidden="true">
          {userName.slice(0, 1).toUpperCase()}
        </span>
        <span className="app-header__name" data-testid="current-user">
          {userName}
        </span>
        <button type="button" className="button button--ghost" onClick={onSignOut} disabled={signingOut}>
          {signingOut ? 'Signing out…' : 'Sign out'}
        </button>
      </div>
    </header>
  );
}
