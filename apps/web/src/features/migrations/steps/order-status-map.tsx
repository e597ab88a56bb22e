import {
  orderStatusLabels,
  orderStatusNames,
  type FieldMappings,
  type OrderStatusName,
} from '@replatform/contracts/migration';

/** Every status mapped to itself unless the owner chose otherwise. */
export function statusTable(
  mappings: FieldMappings | undefined,
): Record<OrderStatusName, OrderStatusName> {
  return Object.fromEntries(
    orderStatusNames.map((status) => [status, mappings?.orderStatuses?.[status] ?? status]),
  ) as Record<OrderStatusName, OrderStatusName>;
}

/**
 * The "Map fields" panel's order statuses: for each status an order can have at the source, the
 * one its orders get at the destination. Each keeps its own by default.
 */
export function OrderStatusMap({
  value,
  onChange,
  destinationLabel,
  disabled,
}: {
  value: Record<OrderStatusName, OrderStatusName>;
  onChange: (value: Record<OrderStatusName, OrderStatusName>) => void;
  destinationLabel: string;
  disabled: boolean;
}) {
  const changed = orderStatusNames.filter((s) => value[s] !== s).length;
  return (
    <fieldset className="mt-6 rounded-xl border border-slate-200 bg-white p-5">
      <legend className="px-1 font-semibold">Map fields: order statuses</legend>
      <p className="text-sm text-slate-600">
        Each order status in your source store, and the status its orders get in {destinationLabel}.
        Every status keeps its own unless you change it here.
      </p>
      <div className="mt-4 grid gap-x-6 gap-y-3 sm:grid-cols-2">
        {orderStatusNames.map((status) => {
          const id = `order-status-${status}`;
          return (
            <div key={status} className="flex flex-wrap items-center justify-between gap-2">
              <label htmlFor={id} className="text-sm">
                {orderStatusLabels[status]} orders become
              </label>
              <select
                id={id}
                value={value[status]}
                disabled={disabled}
                onChange={(event) =>
                  onChange({ ...value, [status]: event.target.value as OrderStatusName })
                }
                className="min-w-40 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm disabled:bg-slate-100"
              >
                {orderStatusNames.map((target) => (
                  <option key={target} value={target}>
                    {orderStatusLabels[target]}
                  </option>
                ))}
              </select>
            </div>
          );
        })}
      </div>
      <p className="mt-3 text-sm text-slate-600" aria-live="polite">
        {changed === 0
          ? 'Every status keeps its own.'
          : `${changed} ${changed === 1 ? 'status is' : 'statuses are'} mapped to another.`}
      </p>
    </fieldset>
  );
}
