import {
  useId,
  useRef,
  useState,
  type ButtonHTMLAttributes,
  type ClipboardEvent,
  type InputHTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
} from 'react';

/**
 * Form controls of the sign-in screens, drawn with the theme's CSS variables and no component
 * library, so the reduced application stays small (its budget is 120 KB gzipped).
 */

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  /** Adds a button that shows the password (label of the button). */
  revealLabel?: string;
}

export function Field({ label, value, onChange, error, revealLabel, type = 'text', ...input }: FieldProps) {
  const id = useId();
  const [revealed, setRevealed] = useState(false);
  return (
    <div className="vigil-field">
      <label className="vigil-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="vigil-field__control">
        <input
          {...input}
          id={id}
          className="vigil-field__input"
          type={revealLabel && revealed ? 'text' : type}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {revealLabel && (
          <button
            type="button"
            className="vigil-field__reveal"
            aria-label={revealLabel}
            aria-pressed={revealed}
            onClick={() => setRevealed((value) => !value)}
          >
            <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
              <path
                d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.8"
              />
              <circle cx="12" cy="12" r="3" fill="none" stroke="currentColor" strokeWidth="1.8" />
              {revealed && <path d="M4 4l16 16" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />}
            </svg>
          </button>
        )}
      </div>
      {error && (
        <p className="vigil-field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'default' | 'subtle';
  loading?: boolean;
}

export function Button({ variant = 'primary', loading = false, disabled, children, className, ...rest }: ButtonProps) {
  return (
    <button
      type="button"
      {...rest}
      className={`vigil-button vigil-button--${variant}${className ? ` ${className}` : ''}`}
      disabled={disabled || loading}
      data-loading={loading || undefined}
      aria-busy={loading || undefined}
    >
      {loading && <span className="vigil-spinner vigil-spinner--small" aria-hidden="true" />}
      <span className="vigil-button__label">{children}</span>
    </button>
  );
}

export function FormAlert({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="vigil-alert vigil-alert--error" role="alert" data-testid={testId}>
      {children}
    </div>
  );
}

interface CodeInputProps {
  length: number;
  value: string;
  onChange: (value: string) => void;
  /** Called when every box is filled. */
  onComplete: (value: string) => void;
  label: string;
  digitLabel: (index: number) => string;
  disabled?: boolean;
  invalid?: boolean;
}

/**
 * A one-time code in separate boxes: typing moves on, Backspace moves back, and pasting a code
 * (into any box) fills them all.
 */
export function CodeInput({
  length,
  value,
  onChange,
  onComplete,
  label,
  digitLabel,
  disabled,
  invalid,
}: CodeInputProps) {
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  const digits = Array.from({ length }, (_, index) => value[index] ?? '');

  const set = (next: string, focusIndex: number) => {
    const clean = next.replace(/\D/g, '').slice(0, length);
    onChange(clean);
    inputs.current[Math.min(focusIndex, length - 1)]?.focus();
    if (clean.length === length) onComplete(clean);
  };

  const handlePaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const pasted = event.clipboardData.getData('text').replace(/\D/g, '');
    if (pasted === '') return;
    event.preventDefault();
    set(pasted, pasted.length);
  };

  const handleKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && digits[index] === '' && index > 0) {
      event.preventDefault();
      set(value.slice(0, index - 1), index - 1);
    } else if (event.key === 'ArrowLeft' && index > 0) {
      inputs.current[index - 1]?.focus();
    } else if (event.key === 'ArrowRight' && index < length - 1) {
      inputs.current[index + 1]?.focus();
    }
  };

  return (
    <div className="vigil-code" role="group" aria-label={label} data-invalid={invalid || undefined}>
      {digits.map((digit, index) => (
        <input
          key={index}
          ref={(element) => {
            inputs.current[index] = element;
          }}
          className="vigil-code__box"
          inputMode="numeric"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          autoFocus={index === 0}
          maxLength={length}
          aria-label={digitLabel(index)}
          value={digit}
          disabled={disabled}
          onPaste={handlePaste}
          onKeyDown={(event) => handleKeyDown(index, event)}
          onFocus={(event) => event.currentTarget.select()}
          onChange={(event) => {
            const typed = event.currentTarget.value.replace(/\D/g, '');
            if (typed.length > 1) {
              // Autofill or a fast typist: spread over the boxes from here.
              set(value.slice(0, index) + typed, index + typed.length);
              return;
            }
            const next = value.slice(0, index) + typed + value.slice(index + 1);
            set(next, typed === '' ? index : index + 1);
          }}
        />
      ))}
    </div>
  );
}
