// CH-benCHmark's 22 analytic queries over the TPC-C tables and supplier, nation and region, in
// PostgreSQL's dialect with explicit joins. The benchmark's joins: a stock row's supplier is
// mod(s_w_id * s_i_id, 10000); a customer's nation is the character code of c_state's first
// letter. Q15's view is a common table expression here, so a stream runs no DDL.

// The paper's upper date bounds (2020) lay after any data when it was written; TPC-C's rows are
// dated at their load and their transactions, so the bounds move out of the way, keeping the
// predicates the planner has to deal with.
const LATEST = '2100-01-01 00:00:00'
/** The stock row's supplier key. */
const SUPPLIER_OF_STOCK = 'mod(s.s_w_id * s.s_i_id, 10000)'
/** The customer's nation key. */
const NATION_OF_CUSTOMER = 'ascii(substr(c.c_state, 1, 1))'
/** An order's lines. */
const ORDER_LINES = 'ol.ol_w_id = o.o_w_id and ol.ol_d_id = o.o_d_id and ol.ol_o_id = o.o_id'
/** An order's customer. */
const ORDER_CUSTOMER = 'c.c_w_id = o.o_w_id and c.c_d_id = o.o_d_id and c.c_id = o.o_c_id'

const QUERIES = [
  // Q1: pricing summary by order line number
  `select ol.ol_number, sum(ol.ol_quantity) as sum_qty, sum(ol.ol_amount) as sum_amount,
     avg(ol.ol_quantity) as avg_qty, avg(ol.ol_amount) as avg_amount, count(*) as count_order
   from order_line ol
   where ol.ol_delivery_d > timestamp '2007-01-02 00:00:00'
   group by ol.ol_number order by ol.ol_number`,

  // Q2: the suppliers of Europe with the smallest stock of each item ending in b
  `select x.su_suppkey, x.su_name, x.n_name, i.i_id, i.i_name, x.su_address, x.su_phone, x.su_comment
   from (
     select s.s_i_id, s.s_quantity, min(s.s_quantity) over (partition by s.s_i_id) as min_quantity,
       su.su_suppkey, su.su_name, su.su_address, su.su_phone, su.su_comment, n.n_name
     from stock s
     join supplier su on su.su_suppkey = ${SUPPLIER_OF_STOCK}
     join nation n on n.n_nationkey = su.su_nationkey
     join region r on r.r_regionkey = n.n_regionkey
     where r.r_name like 'Europ%'
   ) x
   join item i on i.i_id = x.s_i_id
   where i.i_data like '%b' and x.s_quantity = x.min_quantity
   order by x.n_name, x.su_name, i.i_id
   limit 100`,

  // Q3: unshipped orders of customers in states beginning with A, by revenue
  `select ol.ol_o_id, ol.ol_w_id, ol.ol_d_id, sum(ol.ol_amount) as revenue, o.o_entry_d
   from customer c
   join orders o on ${ORDER_CUSTOMER}
   join new_order no on no.no_w_id = o.o_w_id and no.no_d_id = o.o_d_id and no.no_o_id = o.o_id
   join order_line ol on ${ORDER_LINES}
   where c.c_state like 'A%' and o.o_entry_d > timestamp '2007-01-02 00:00:00'
   group by ol.ol_o_id, ol.ol_w_id, ol.ol_d_id, o.o_entry_d
   order by revenue desc, o.o_entry_d, ol.ol_w_id, ol.ol_d_id, ol.ol_o_id
   limit 10`,

  // Q4: orders with a line delivered on or after the order's entry, by line count
  `select o.o_ol_cnt, count(*) as order_count
   from orders o
   where o.o_entry_d >= timestamp '2007-01-02 00:00:00'
     and exists (select 1 from order_line ol where ${ORDER_LINES} and ol.ol_delivery_d >= o.o_entry_d)
   group by o.o_ol_cnt order by o.o_ol_cnt`,

  // Q5: revenue of European nations where the customer and the supplier share the nation
  `select n.n_name, sum(ol.ol_amount) as revenue
   from customer c
   join orders o on ${ORDER_CUSTOMER}
   join order_line ol on ${ORDER_LINES}
   join stock s on s.s_w_id = ol.ol_w_id and s.s_i_id = ol.ol_i_id
   join supplier su on su.su_suppkey = ${SUPPLIER_OF_STOCK}
   join nation n on n.n_nationkey = su.su_nationkey
   join region r on r.r_regionkey = n.n_regionkey
   where su.su_nationkey = ${NATION_OF_CUSTOMER}
     and r.r_name = 'Europe' and o.o_entry_d >= timestamp '2007-01-02 00:00:00'
   group by n.n_name order by revenue desc, n.n_name`,

  // Q6: revenue of delivered lines in a range of quantities
  `select sum(ol.ol_amount) as revenue
   from order_line ol
   where ol.ol_delivery_d >= timestamp '1999-01-01 00:00:00' and ol.ol_delivery_d < timestamp '${LATEST}'
     and ol.ol_quantity between 1 and 100000`,

  // Q7: trade between Germany and Cambodia, by year
  `select su.su_nationkey as supp_nation, substr(c.c_state, 1, 1) as cust_nation,
     extract(year from o.o_entry_d) as l_year, sum(ol.ol_amount) as revenue
   from order_line ol
   join stock s on s.s_w_id = ol.ol_supply_w_id and s.s_i_id = ol.ol_i_id
   join supplier su on su.su_suppkey = ${SUPPLIER_OF_STOCK}
   join orders o on ${ORDER_LINES}
   join customer c on ${ORDER_CUSTOMER}
   join nation n1 on n1.n_nationkey = su.su_nationkey
   join nation n2 on n2.n_nationkey = ${NATION_OF_CUSTOMER}
   where (n1.n_name = 'Germany' and n2.n_name = 'Cambodia') or (n1.n_name = 'Cambodia' and n2.n_name = 'Germany')
   group by su.su_nationkey, cust_nation, l_year
   order by su.su_nationkey, cust_nation, l_year`,

  // Q8: Germany's share of European customers' spending on items ending in b, by year
  `select extract(year from o.o_entry_d) as l_year,
     sum(case when n2.n_name = 'Germany' then ol.ol_amount else 0 end) / nullif(sum(ol.ol_amount), 0) as mkt_share
   from order_line ol
   join item i on i.i_id = ol.ol_i_id
   join stock s on s.s_w_id = ol.ol_supply_w_id and s.s_i_id = ol.ol_i_id
   join supplier su on su.su_suppkey = ${SUPPLIER_OF_STOCK}
   join orders o on ${ORDER_LINES}
   join customer c on ${ORDER_CUSTOMER}
   join nation n1 on n1.n_nationkey = ${NATION_OF_CUSTOMER}
   join region r on r.r_regionkey = n1.n_regionkey
   join nation n2 on n2.n_nationkey = su.su_nationkey
   where ol.ol_i_id < 1000 and r.r_name = 'Europe' and i.i_data like '%b'
   group by l_year order by l_year`,

  // Q9: the amount of items ending in bb sold, by supplier nation and year
  `select n.n_name, extract(year from o.o_entry_d) as l_year, sum(ol.ol_amount) as sum_profit
   from order_line ol
   join item i on i.i_id = ol.ol_i_id
   join stock s on s.s_w_id = ol.ol_supply_w_id and s.s_i_id = ol.ol_i_id
   join supplier su on su.su_suppkey = ${SUPPLIER_OF_STOCK}
   join nation n on n.n_nationkey = su.su_nationkey
   join orders o on ${ORDER_LINES}
   where i.i_data like '%bb'
   group by n.n_name, l_year order by n.n_name, l_year desc`,

  // Q10: the customers with the most revenue from delivered orders
  `select c.c_id, c.c_last, sum(ol.ol_amount) as revenue, c.c_city, c.c_phone, n.n_name
   from customer c
   join orders o on ${ORDER_CUSTOMER}
   join order_line ol on ${ORDER_LINES}
   join nation n on n.n_nationkey = ${NATION_OF_CUSTOMER}
   where o.o_entry_d >= timestamp '2007-01-02 00:00:00' and o.o_entry_d <= ol.ol_delivery_d
   group by c.c_id, c.c_last, c.c_city, c.c_phone, n.n_name
   order by revenue desc, c.c_id, c.c_last, c.c_city, c.c_phone, n.n_name
   limit 20`,

  // Q11: the items most ordered from German suppliers' stock
  `with german_stock as (
     select s.s_i_id, s.s_order_cnt
     from stock s
     join supplier su on su.su_suppkey = ${SUPPLIER_OF_STOCK}
     join nation n on n.n_nationkey = su.su_nationkey
     where n.n_name = 'Germany'
   )
   select s_i_id, sum(s_order_cnt) as ordercount
   from german_stock
   group by s_i_id
   having sum(s_order_cnt) > (select sum(s_order_cnt) * 0.005 from german_stock)
   order by ordercount desc, s_i_id`,

  // Q12: delivered lines by line count, high and low carrier priority
  `select o.o_ol_cnt,
     sum(case when o.o_carrier_id in (1, 2) then 1 else 0 end) as high_line_count,
     sum(case when o.o_carrier_id not in (1, 2) then 1 else 0 end) as low_line_count
   from orders o
   join order_line ol on ${ORDER_LINES}
   where o.o_entry_d <= ol.ol_delivery_d and ol.ol_delivery_d < timestamp '${LATEST}'
   group by o.o_ol_cnt order by o.o_ol_cnt`,

  // Q13: customers by their number of orders with a high carrier number
  `select c_count, count(*) as custdist
   from (
     select c.c_id, count(o.o_id) as c_count
     from customer c
     left join orders o on ${ORDER_CUSTOMER} and o.o_carrier_id > 8
     group by c.c_w_id, c.c_d_id, c.c_id
   ) as c_orders
   group by c_count order by custdist desc, c_count desc`,

  // Q14: the share of revenue from promoted items (i_data beginning with PR)
  `select 100.00 * sum(case when i.i_data like 'PR%' then ol.ol_amount else 0 end) / (1 + sum(ol.ol_amount)) as promo_revenue
   from order_line ol
   join item i on i.i_id = ol.ol_i_id
   where ol.ol_delivery_d >= timestamp '2007-01-02 00:00:00' and ol.ol_delivery_d < timestamp '${LATEST}'`,

  // Q15: the supplier with the most revenue (the benchmark's view as a common table expression)
  `with revenue as (
     select ${SUPPLIER_OF_STOCK} as supplier_no, sum(ol.ol_amount) as total_revenue
     from order_line ol
     join stock s on s.s_w_id = ol.ol_supply_w_id and s.s_i_id = ol.ol_i_id
     where ol.ol_delivery_d >= timestamp '2007-01-02 00:00:00'
     group by supplier_no
   )
   select su.su_suppkey, su.su_name, su.su_address, su.su_phone, rv.total_revenue
   from supplier su
   join revenue rv on rv.supplier_no = su.su_suppkey
   where rv.total_revenue = (select max(total_revenue) from revenue)
   order by su.su_suppkey`,

  // Q16: suppliers per item, without suppliers that had complaints
  `select i.i_name, substr(i.i_data, 1, 3) as brand, i.i_price,
     count(distinct ${SUPPLIER_OF_STOCK}) as supplier_cnt
   from stock s
   join item i on i.i_id = s.s_i_id
   where i.i_data not like 'zz%'
     and ${SUPPLIER_OF_STOCK} not in (select su.su_suppkey from supplier su where su.su_comment like '%bad%')
   group by i.i_name, brand, i.i_price
   order by supplier_cnt desc, i.i_name, brand, i.i_price
   limit 100`,

  // Q17: the average yearly amount of small orders of items ending in b
  `with item_quantity as (
     select i.i_id, avg(ol.ol_quantity) as a
     from item i
     join order_line ol on ol.ol_i_id = i.i_id
     where i.i_data like '%b'
     group by i.i_id
   )
   select sum(ol.ol_amount) / 2.0 as avg_yearly
   from order_line ol
   join item_quantity t on t.i_id = ol.ol_i_id
   where ol.ol_quantity < t.a`,

  // Q18: large orders
  `select c.c_last, c.c_id, o.o_id, o.o_entry_d, o.o_ol_cnt, sum(ol.ol_amount) as amount_sum
   from customer c
   join orders o on ${ORDER_CUSTOMER}
   join order_line ol on ${ORDER_LINES}
   group by o.o_id, o.o_w_id, o.o_d_id, c.c_id, c.c_last, o.o_entry_d, o.o_ol_cnt
   having sum(ol.ol_amount) > 200
   order by amount_sum desc, o.o_entry_d, o.o_w_id, o.o_d_id, o.o_id
   limit 100`,

  // Q19: revenue of three item and warehouse groups
  `select sum(ol.ol_amount) as revenue
   from order_line ol
   join item i on i.i_id = ol.ol_i_id
   where ol.ol_quantity between 1 and 10 and i.i_price between 1 and 400000
     and ((i.i_data like '%a' and ol.ol_w_id in (1, 2, 3))
       or (i.i_data like '%b' and ol.ol_w_id in (1, 2, 4))
       or (i.i_data like '%c' and ol.ol_w_id in (1, 5, 3)))`,

  // Q20: German suppliers with plenty of stock of items beginning with co
  `select su.su_name, su.su_address
   from supplier su
   join nation n on n.n_nationkey = su.su_nationkey
   where n.n_name = 'Germany'
     and su.su_suppkey in (
       select ${SUPPLIER_OF_STOCK}
       from stock s
       join item i on i.i_id = s.s_i_id
       join order_line ol on ol.ol_i_id = s.s_i_id
       where ol.ol_delivery_d > timestamp '2010-05-23 12:00:00' and i.i_data like 'co%'
       group by s.s_i_id, s.s_w_id, s.s_quantity
       having 2 * s.s_quantity > sum(ol.ol_quantity)
     )
   order by su.su_name`,

  // Q21: German suppliers whose line was the last one of an order delivered late
  `select su.su_name, count(*) as numwait
   from order_line l1
   join orders o on o.o_w_id = l1.ol_w_id and o.o_d_id = l1.ol_d_id and o.o_id = l1.ol_o_id
   join stock s on s.s_w_id = l1.ol_w_id and s.s_i_id = l1.ol_i_id
   join supplier su on su.su_suppkey = ${SUPPLIER_OF_STOCK}
   join nation n on n.n_nationkey = su.su_nationkey
   where l1.ol_delivery_d > o.o_entry_d and n.n_name = 'Germany'
     and not exists (
       select 1 from order_line l2
       where l2.ol_w_id = l1.ol_w_id and l2.ol_d_id = l1.ol_d_id and l2.ol_o_id = l1.ol_o_id
         and l2.ol_delivery_d > l1.ol_delivery_d
     )
   group by su.su_name
   order by numwait desc, su.su_name
   limit 100`,

  // Q22: customers with a good balance who have never ordered, by state's first letter
  `select substr(c.c_state, 1, 1) as country, count(*) as numcust, sum(c.c_balance) as totacctbal
   from customer c
   where substr(c.c_phone, 1, 1) in ('1', '2', '3', '4', '5', '6', '7')
     and c.c_balance > (
       select avg(c2.c_balance) from customer c2
       where c2.c_balance > 0.00 and substr(c2.c_phone, 1, 1) in ('1', '2', '3', '4', '5', '6', '7')
     )
     and not exists (select 1 from orders o where ${ORDER_CUSTOMER})
   group by country order by country`
]

// Q16 reads only what TPC-C's transactions never write (item, supplier and stock's keys): its
// answer holds still even beside the TPC-C terminals
const STATIC_DATA = new Set(['q16'])
// an ORDER BY outside every parenthesis: the query's own order, which its checksum keeps
const TOP_LEVEL_ORDER = /\border by\b[^()]*$/i

/**
 * The 22 queries, named q1 ... q22 (the transaction types of an analytic stream): `ordered` when
 * the query orders its rows (its ORDER BY names a total order), `staticData` when its answer
 * reads only tables and columns the TPC-C transactions never change.
 * @type {ReadonlyArray<{ name: string, sql: string, ordered: boolean, staticData: boolean }>}
 */
export const CH_QUERIES = Object.freeze(QUERIES.map((sql, i) => Object.freeze({
  name: `q${i + 1}`,
  sql: sql.replace(/\n\s+/g, '\n  '),
  ordered: TOP_LEVEL_ORDER.test(sql),
  staticData: STATIC_DATA.has(`q${i + 1}`)
})))
