import {
  FileText,
  MessageSquareText,
  Newspaper,
  Package,
  ShoppingCart,
  Tag,
  TicketPercent,
  Users,
} from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import {
  contentAccessOf,
  dataTypeNames,
  dataTypeUnavailable,
  optionsOf,
  platformLabels,
  type DataTypeName,
  type FieldMappings,
  type Migration,
  type MigrationOptions,
} from '@replatform/contracts/migration';
import { useDemoMigration } from '../api/demo-api.ts';
import { useUpdateMigration } from '../api/migrations-api.ts';
import { DemoMigrationPanel } from './demo-migration-panel.tsx';
import { MigrationOptionsPanel } from './migration-options.tsx';
import { OrderStatusMap, statusTable } from './order-status-map.tsx';
import { ValueMapsPanel, initialValueMaps, valueMapsProblem } from './value-maps.tsx';

const cards: Record<DataTypeName, { title: string; text: string; Icon: typeof Package }> = {
  products: { title: 'Products', text: 'Catalog, images, descriptions, pricing', Icon: Package },
  customers: { title: 'Customers', text: 'Accounts, profiles, contact info', Icon: Users },
  orders: { title: 'Orders', text: 'History, transactions, fulfilment', Icon: ShoppingCart },
  coupons: {
    title: 'Coupons',
    text: 'Discount codes, their limits and restrictions',
    Icon: TicketPercent,
  },
  reviews: {
    title: 'Product reviews',
    text: 'Ratings and reviews of the products, with their status',
    Icon: MessageSquareText,
  },
  brands: {
    title: 'Brands',
    text: 'Brand pages with their description, logo and SEO',
    Icon: Tag,
  },
  pages: {
    title: 'Pages',
    text: 'Web pages such as About and Shipping, with their text and SEO',
    Icon: FileText,
  },
  posts: {
    title: 'Blog posts',
    text: 'Articles with their author, image, categories and tags',
    Icon: Newspaper,
  },
};

/** Why a type cannot be chosen for this pair of stores, or null when it can. */
type StorePair = Pick<
  Migration,
  | 'sourceStore'
  | 'destinationStore'
  | 'wordpressApplicationPassword'
  | 'destinationWordpressApplicationPassword'
>;

export function unavailableReason(migration: StorePair, type: DataTypeName): string | null {
  if (!migration.sourceStore || !migration.destinationStore) return null;
  return dataTypeUnavailable(
    type,
    migration.sourceStore,
    migration.destinationStore,
    contentAccessOf(migration),
  );
}

export type DataSelection = Record<DataTypeName, boolean>;

/**
 * What the cards show first: every type until the owner has saved a choice (a saved choice names
 * every type it offered), so the owner deselects what they do not want.
 */
export function initialSelection(
  migration: StorePair & Pick<Migration, 'dataTypes'>,
): DataSelection {
  const chosen = Object.keys(migration.dataTypes).length > 0;
  const initial = (type: DataTypeName) =>
    unavailableReason(migration, type) === null &&
    (chosen ? Boolean(migration.dataTypes[type]) : true);
  return {
    products: initial('products'),
    customers: initial('customers'),
    orders: initial('orders'),
    coupons: initial('coupons'),
    reviews: initial('reviews'),
    brands: initial('brands'),
    pages: initial('pages'),
    posts: initial('posts'),
  };
}

/**
 * Step 2: toggle cards, with orders the "Map fields" panel of order statuses, and the additional
 * options; 'Proceed to
 * Payment' needs at least one type. The page's Next Step saves the same choices, so they are
 * reported up as they change.
 */
export function SelectDataStep({
  migration,
  readOnly,
  onSelectionChange,
  onMappingsChange,
  onOptionsChange,
}: {
  migration: Migration;
  readOnly: boolean;
  onSelectionChange?: (selection: DataSelection) => void;
  onMappingsChange?: (mappings: FieldMappings) => void;
  onOptionsChange?: (options: Required<MigrationOptions>) => void;
}) {
  const [selected, setSelected] = useState<DataSelection>(() => initialSelection(migration));
  const [statuses, setStatuses] = useState(() => statusTable(migration.fieldMappings));
  const [values, setValues] = useState(() => initialValueMaps(migration.fieldMappings));
  const [options, setOptions] = useState(() => optionsOf(migration.migrationOptions));
  const mappings = useMemo(() => ({ orderStatuses: statuses, ...values }), [statuses, values]);
  const problem = valueMapsProblem(values);
  useEffect(() => onSelectionChange?.(selected), [selected, onSelectionChange]);
  useEffect(() => onMappingsChange?.(mappings), [mappings, onMappingsChange]);
  useEffect(() => onOptionsChange?.(options), [options, onOptionsChange]);
  const update = useUpdateMigration(migration.id);
  const demo = useDemoMigration(migration.id);
  const demoRunning = demo.data?.state === 'queued' || demo.data?.state === 'running';
  const any = dataTypeNames.some((t) => selected[t]);
  return (
    <section aria-labelledby="select-title">
      <h2 id="select-title" className="text-xl font-semibold">
        Select Data
      </h2>
      <p className="mt-1 text-slate-600">Choose what data to migrate.</p>
      <div className="mt-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {dataTypeNames.map((type) => {
          const { title, text, Icon } = cards[type];
          const unavailable = unavailableReason(migration, type);
          return (
            <button
              key={type}
              type="button"
              role="switch"
              aria-checked={selected[type]}
              aria-describedby={unavailable ? `unavailable-${type}` : undefined}
              disabled={readOnly || unavailable !== null}
              onClick={() => setSelected({ ...selected, [type]: !selected[type] })}
              className={`rounded-xl border-2 p-5 text-left transition ${selected[type] ? 'border-indigo-600 bg-indigo-50' : 'border-slate-200 bg-white hover:border-slate-300'} disabled:cursor-not-allowed`}
            >
              <Icon className={selected[type] ? 'text-indigo-600' : 'text-slate-500'} aria-hidden />
              <span className="mt-3 block font-semibold">{title}</span>
              <span className="mt-1 block text-sm text-slate-600">{text}</span>
              {unavailable ? (
                <span id={`unavailable-${type}`} className="mt-2 block text-sm text-amber-800">
                  {unavailable}
                </span>
              ) : null}
            </button>
          );
        })}
      </div>
      {selected.orders ? (
        <OrderStatusMap
          value={statuses}
          onChange={setStatuses}
          destinationLabel={
            migration.destinationStore
              ? `your ${platformLabels[migration.destinationStore]} store`
              : 'the destination store'
          }
          disabled={readOnly}
        />
      ) : null}
      {!readOnly && migration.sourceVerified && migration.destinationVerified ? (
        <ValueMapsPanel
          migrationId={migration.id}
          value={values}
          onChange={setValues}
          destinationLabel={
            migration.destinationStore
              ? `your ${platformLabels[migration.destinationStore]} store`
              : 'the destination store'
          }
          show={{
            customerGroups: selected.customers,
            taxClasses: selected.products || selected.orders,
            currency: selected.products || selected.orders || selected.coupons,
          }}
          disabled={readOnly}
        />
      ) : null}
      <MigrationOptionsPanel
        value={options}
        onChange={setOptions}
        destination={migration.destinationStore}
        disabled={readOnly}
      />
      {update.isError ? (
        <p role="alert" className="mt-4 text-red-700">
          {update.error.message}
        </p>
      ) : null}
      {!readOnly ? (
        <DemoMigrationPanel
          migration={migration}
          canRun={any && !problem && migration.sourceVerified && migration.destinationVerified}
          save={() =>
            update.mutateAsync({
              dataTypes: selected,
              fieldMappings: mappings,
              migrationOptions: options,
            })
          }
        />
      ) : null}
      {!readOnly ? (
        <button
          type="button"
          disabled={!any || problem !== null || update.isPending || demoRunning}
          aria-describedby={
            demoRunning ? 'demo-running-note' : problem ? 'mapping-problem-note' : undefined
          }
          onClick={() =>
            update.mutate({
              dataTypes: selected,
              fieldMappings: mappings,
              migrationOptions: options,
              currentStep: 3,
            })
          }
          className="mt-6 rounded-md bg-indigo-600 px-5 py-2.5 font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
        >
          Proceed to Payment
        </button>
      ) : null}
      {!readOnly && problem ? (
        <p id="mapping-problem-note" className="mt-2 text-sm text-slate-600">
          Currency: {problem}.
        </p>
      ) : null}
      {!readOnly && demoRunning ? (
        <p id="demo-running-note" className="mt-2 text-sm text-slate-600">
          You can go on to payment once the demo migration has finished.
        </p>
      ) : null}
    </section>
  );
}
