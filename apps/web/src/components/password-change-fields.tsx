import type { UseFormRegisterReturn } from 'react-hook-form';
import { PasswordField } from './form-fields.tsx';

/** The current password, then the new one twice, as My Account and Settings ask for a change. */
export function PasswordChangeFields<Name extends string>({
  register,
  names: [current, next, confirm],
  hint,
  disabled,
}: {
  register: (name: Name) => UseFormRegisterReturn<Name>;
  /** The form's fields for the current, the new and the repeated new password. */
  names: [Name, Name, Name];
  hint: string;
  disabled: boolean;
}) {
  const fields = [
    { name: current, label: 'Current Password', autoComplete: 'current-password' },
    { name: next, label: 'New Password', autoComplete: 'new-password', hint },
    { name: confirm, label: 'Confirm New Password', autoComplete: 'new-password' },
  ];
  return (
    <>
      {fields.map(({ name, ...field }) => (
        <PasswordField key={name} {...field} disabled={disabled} {...register(name)} />
      ))}
    </>
  );
}
