import { useSearchParams } from 'react-router';
import { Page } from '../shell/page.tsx';
import { RegistrationWizard } from '../wizard/registration-wizard.tsx';

/** /sr2c: the registration wizard with its steps beside the page preview (wide windows). */
export default function TargetRegistrationColumnsPage() {
  // An id in the address is an existing site being edited (docs/product.md#wizard).
  const editing = useSearchParams()[0].has('id');
  return (
    <Page title={editing ? 'siteEdit' : 'siteRegistration'}>
      <RegistrationWizard layout="columns" />
    </Page>
  );
}
