"""The metrics a filing's figures are read into, and the one table of labels that names them.

Why one table of every label (not one pattern per screening field): a number belongs to the label nearest
before it, so the reader must know every label a filing prints, including those it does not keep
(`利润总额`, `营业成本`, `净息差`, `保费收入`): `实现营业收入2355亿元，实现保费收入2166亿元` makes 2166 the
premiums, not a second revenue. Each label says its metric and its rank (0 best: `归属于…股东的净利润`
before a plain `净利润`, `营业收入` before `营业总收入`); labels of metrics nobody keeps have metric `other`.
The
alternatives are tried longest and most specific first at each position (`归母扣非净利润` is the 扣非 profit,
`净利润率` the net margin, never the net profit).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

METRICS: dict[str, tuple[str, ...]] = {
    "revenue": ("money",),
    "net_profit": ("money",),
    "net_profit_deducted": ("money",),
    "gross_margin": ("percent",),
    "net_margin": ("percent",),
    "roe": ("percent",),
    "roe_deducted": ("percent",),
    "eps": ("money", "per_share", "none"),
    "pe_ttm": ("times", "none"),
    "pe_dynamic": ("times", "none"),
    "pe_static": ("times", "none"),
    "pe_forward": ("times", "none"),
    "operating_cash_flow": ("money",),
    "operating_cost": ("money",),
}
"""Every metric a fact may have, with the unit kinds its value may be printed in (task/units.py)."""
MONEY_METRICS = frozenset(m for m, kinds in METRICS.items() if kinds == ("money",))
GROWTH_METRICS = frozenset({"revenue", "net_profit", "net_profit_deducted"})
"""Metrics whose growth rate (`同比增长41.8%`) is read as a fact of basis `growth`."""
PE_METRICS = frozenset({"pe_ttm", "pe_dynamic", "pe_static", "pe_forward"})

_OWNER = r"归属于?[^，。；,;|]{0,16}?(?:股东|所有者|权益持有人)"
"""`归属于上市公司股东`, `归属上市公司股东`, and either wrapped over a PDF's line."""


def _w(*words: str) -> str:
    """Alternation of literal words; ASCII words only as whole words (`pe` must not match `type`)."""
    parts = []
    for w in sorted(words, key=len, reverse=True):
        parts.append(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])" if w.isascii() else re.escape(w))
    return "|".join(parts)


_LABELS: list[tuple[str, str, int]] = [
    # --- profit after non-recurring items (扣非), before the profit itself
    (_OWNER + r"的?(?:扣除非经常性损益|扣非)(?:后)?的?净(?:利润|亏损)", "net_profit_deducted", 0),
    (r"扣除非经常性损益(?:后)?的?(?:" + _OWNER + r"的)?净(?:利润|亏损)", "net_profit_deducted", 0),
    (r"(?:归母)?扣非(?:后)?的?(?:归母|归上|归属(?:于)?(?:母公司)?(?:股东)?的?)?(?:净利润|净利|净亏损|利润|业绩)|扣非(?=\s?(?:增|降|同比|下降|增长|下滑))",
     "net_profit_deducted", 0),
    # `收入、归母、扣非 14.14 亿、 0.34 亿、 0.32 亿`: a bare 扣非 closing a run of labels before its numbers
    (r"(?<=[、/])\s?扣非(?=\s?[-+−]?[0-9])", "net_profit_deducted", 0),
    (r"(?:(?<=扣非前/)|(?<=扣非前、)|(?<=扣非前))\s?后\s?的?(?:归母|归上|归属于?母公司(?:股东)?的?)?净利润?",
     "net_profit_deducted", 0),
    (r"扣除非经常性损益(?:后)?的?(?:加权平均)?净资产收益率|扣非(?:后)?(?:加权平均)?(?:净资产收益率|\s?ROE)",
     "roe_deducted", 0),
    (r"扣除非经常性损益(?:后)?的?(?:基本|稀释)?每股收益", "other", 0),
    # --- a label qualified after it (`加权平均净资产收益率（扣除非经常性损益）`, a bank's table row)
    # (`ROE（扣非口径）8.3%`: the deducted ROE, however the bracket words it)
    (r"(?:(?:年化)?(?:加权平均)?净资产收益率|(?<![A-Za-z])(?:加权(?:平均)?)?\s?ROE(?![A-Za-z]))"
     r"\s?[(（]\s?(?:扣除非经常性损益|扣非)(?:后)?(?:口径)?\s?[)）]",
     "roe_deducted", 0),
    (r"(?:" + _OWNER + r"的)?净(?:利润|亏损)\s?[(（]\s?(?:扣除非经常性损益|扣非)(?:后)?(?:口径)?\s?[)）]",
     "net_profit_deducted", 0),
    (r"(?:基本|稀释|摊薄)?每股收益\s?[(（]\s?(?:扣除非经常性损益|扣非)(?:后)?\s?[)）]", "other", 0),
    # the profit left to ordinary shareholders after preferred dividends and perpetual-bond interest
    # (a bank's EPS note): not the 归母净利润
    (_OWNER.replace("(?:股东|所有者|权益持有人)", "普通股(?:股东|持有者)")
     + r"的(?:本年|本期)?净(?:利润|亏损)"
     r"|归属于(?:母公司|本行|本公司|公司)?普通股股东的(?:本年|本期)?净(?:利润|亏损)",
     "other", 0),
    # --- margins (before the profit: 净利润率 is a margin)
    (_w("销售净利率", "净利润率", "净利率", "net margin", "net profit margin"), "net_margin", 0),
    (_w("主营业务毛利率"), "gross_margin", 1),
    # `毛利润率`: the gross profit's rate, the gross margin spelt out
    (_w("综合毛利率", "销售毛利率", "整体毛利率", "毛利润率", "毛利率", "gross margin",
        "gross profit margin"),
     "gross_margin", 0),
    # `23Q1毛/净利率为19.14%/5.89%`: the gross margin named by its first character, the shared word after
    (r"毛(?=\s?[/、]?\s?净利率)", "gross_margin", 0),
    # --- ROE
    (r"(?:年化)?加权平均净资产收益率|平均净资产收益率|净资产收益率|净资产回报率"
     r"|加权(?:平均)?(?:年化)?(?:后)?\s?ROE|年化(?:后)?(?:加权)?(?:平均)?\s?ROE|(?<![A-Za-z])(?:ROAE|ROE)(?![A-Za-z])"
     r"|return on (?:average )?equity",
     "roe", 0),
    (_w("总资产收益率", "总资产回报率", "ROAA", "ROA", "return on assets", "return on average assets",
        "投入资本回报率", "ROIC"),
     "other", 0),
    # --- net profit
    # `归母/扣非净利润3.24亿/4.28亿`, `归母及扣非净利润`: the shared word ends the second label only
    (r"(?:归母|归属于?母公司(?:股东)?的?)(?=\s?[/、和及与]\s?扣非)", "net_profit", 0),
    # `扣非前/后归母净利润5.3/5.0亿元`: the profit before and after non-recurring items (shared words after)
    (r"扣非前(?=\s?[/、]?\s?后\s?的?(?:归母|归上|归属于?母公司(?:股东)?的?)?净利)", "net_profit", 0),
    # `归母利润为4321万元`: 净 left out
    (_OWNER + r"的?(?:本年|本期|当期)?净(?:利润|亏损)|" + _OWNER + r"的(?:本年|本期|当期)?亏损"
     r"|(?:权益)?(?:股东|拥有人|权益持有人)应占(?:亏损|溢利)|归母净(?:利润|利|亏损)|归属净利润|股东应占利润"
     r"|归上净(?:利润|利|亏损)"  # `归上净利润`: 归属于上市公司股东的净利润 shortened
     r"|归母(?:公司)?利润(?![率总])|拥有人应占利润"
     r"|归母(?=\s?[-−]?[0-9])"  # `归母13.69亿元（YOY+75%）`: 归母 alone right before its amount
     r"|归属(?:于)?(?:母公司|上市公司|本公司|本行|公司)(?:股东|所有者)?(?:的)?净(?:利润|亏损)",
     "net_profit", 0),
    (_w(
        "net profit attributable to shareholders", "net profit attributable to owners",
        "net profit attributable to equity holders", "net profit attributable",
        "profit attributable to shareholders", "profit attributable to owners",
        "profit attributable to equity holders", "net income attributable",
    ), "net_profit", 0),  # fmt: skip
    (r"拨备前(?:净)?利润|(?:经营|营业)利润率|少数股东损益|归属于少数股东的?(?:净利润|损益)|营运利润|营业利润|利润总额|税前利润|毛利(?![率])|核心净利润"
     r"|经调整(?:后)?(?:的)?净利润|调整后(?:的)?净利润",
     "other", 0),
    (r"净利润|净亏损|净亏(?!损)|净利(?![率润息])|" + _w("net profit", "net income", "net loss"),
     "net_profit", 1),
    # a bare loss stated as a result (`；亏损4.9亿元`, `公司录得亏损30.36亿`, `上年同期为亏损…`): the
    # profit's weakest label, only where it opens its clause or follows the one it is about, a period or a
    # verb of result; `汇兑亏损`, `板块亏损` (a part's loss: left unread), `亏损额收窄`, `亏损幅度` are not it
    (r"(?:(?<=^)|(?<=[，,；;。：:、\s)）0-9A-Za-z])|(?<=公司)|(?<=集团)|(?<=录得)|(?<=实现)|(?<=出现)|(?<=全年)"
     r"|(?<=年)|(?<=半年)|(?<=季度)|(?<=[一二三四1-4]季)|(?<=单季)|(?<=期)|(?<=期内)|(?<=期为)|(?<=分别))亏损"
     r"(?![额幅率面范程损])(?!\s?(?:同比|收窄|扩大|减少|增加|缩小|缩窄|加大|加剧|增大|减小))",
     "net_profit", 2),
    # --- cash flow (its inflow and outflow subtotals, `经营活动现金流入小计`, are not the net flow)
    (r"经营活动(?:产生的)?现金流(?:量)?[入出]", "other", 0),
    (r"经营活动(?:产生的)?现金流量?净额|经营活动(?:产生的)?净现金流(?:量)?|经营性现金流(?:量)?净额|经营性净现金流"
     r"|经营现金流(?:量)?净额|经营活动现金流(?:量)?|经营性现金流(?:量)?|经营现金流(?:量)?|"
     + _w("operating cash flow"),
     "operating_cash_flow", 0),
    (r"(?:投资|筹资)活动(?:产生的)?现金流(?:量)?净额", "other", 0),
    # --- revenue
    (r"(?<![自经运主直联])营收|" + _w("营业收入", "实现收入", "operating revenue", "revenue", "revenues"),
     "revenue", 0),
    # a bare 收入 right after a period (`2019年收入53.1亿元`), the company or 实现
    # (`2019年业绩：收入687亿元`, `2022前三季收入935亿元`), not inside a compound
    (r"(?:(?<=[0-9A-Za-z：:，,；;。\s])|(?<=^)|(?<=实现)|(?<=公司)|(?<=集团)|(?<=全年)|(?<=季度)|(?<=[一二三四1-4]季)|(?<=单季)|(?<=年度)|(?<=上半年)|(?<=[0-9]年)"
     r"|(?<=[0-9A-Za-z\s]累计)|(?<=季度累计)|(?<=公司累计)|(?<=[0-9]年累计)|(?<=上半年累计))"
     r"收入(?![占结规端来确入])(?!增(?!(?:长|加)\s?[0-9][0-9.]*\s?%\s?(?:至|到)))",
     "revenue", 1),
    (_w("营业总收入", "总营收", "主营收入", "total revenue", "total revenues", "total operating income",
        "operating income"),
     "revenue", 1),
    # `总收入7.13亿元`, `陆金所控股总收入为100.78亿元`, `，公司实现销售收入364.52亿元`: the whole's revenue
    # in other words; a part's names its
    # subject (`前五大客户销售收入`, `Newchem公司销售收入`, `组件…；实现销售收入`): 销售收入 needs 公司
    # standing alone
    # a bank's revenue line (`营业净收入13.18亿元`: net of interest expense, what a bank reports as 营业收入)
    (r"营业净收入", "revenue", 1),
    # a Hong Kong filing's revenue: 收益 or 营业额 of the group or company itself (`本集团收益为人民币…`)
    (r"(?:(?<=本集团)|(?<=本公司))(?:收益|营业额)(?=\s?(?:为|约|达|录得|人民币|[0-9]))", "revenue", 1),
    # (`公司19年实现销售收入36.03亿`: the company, its year, then 实现, as plain as `公司实现`)
    (r"(?:(?<![\u4e00-\u9fff])|(?<=控股)|(?<=集团))总收入|(?<=[，,。；;：:\s]公司实现)销售收入|(?<=[，,。；;：:\s]公司)(?:总|销售)收入"
     r"|(?:(?<=[，,。；;：:\s]公司[0-9]{2}年实现)|(?<=[，,。；;：:\s]公司20[0-9]{2}年实现))销售收入",
     "revenue", 1),
    (r"利息净收入|手续费及佣金净收入|净手续费及佣金收入|手续费及佣金收入|非息收入|非利息净?收入|投资收益(?!率)"
     r"|营业外收入|其他收益|保费收入|保险服务收入|主营业务收入|营业成本|营业总成本|主营业务成本",
     "other", 0),
    # --- per share
    (r"基本每股收益|每股收益|摊薄每股收益|(?<![A-Za-z])EPS(?![A-Za-z])", "eps", 0),
    (r"稀释每股收益", "eps", 1),
    (r"每股净资产|(?<![A-Za-z])BVPS(?![A-Za-z])|每股经营(?:活动)?(?:产生的)?(?:现金流|净现金流)(?:量)?(?:净额)?"
     r"|每股股利|每股派|每股未分配利润|每股资本公积",
     "other", 0),
    # --- PE
    (r"市盈率\s?[(（]?\s?TTM\s?[)）]?|市盈率\s?-\s?TTM|滚动市盈率|TTM\s?市盈率"
     r"|(?<![A-Za-z])(?:P/?E|PE)\s?[(（-]?\s?TTM\s?[)）]?(?![A-Za-z])|(?<![A-Za-z])TTM\s?(?:P/?E|PE)(?![A-Za-z])"
     r"|trailing P/?E",
     "pe_ttm", 0),
    (r"动态市盈率|市盈率\s?[(（]动[)）]|(?<![A-Za-z])(?:P/?E|PE)\s?[(（]动[)）]", "pe_dynamic", 0),
    (r"静态市盈率|市盈率\s?[(（]静[)）]|市盈率\s?[(（]?LYR[)）]?|(?<![A-Za-z])(?:P/?E|PE)\s?[(（]?LYR[)）]?"
     r"|(?<![A-Za-z])LYR(?![A-Za-z])",
     "pe_static", 0),
    (r"forward P/?E|(?<![A-Za-z])(?:P/?E|PE)\s?[(（]?(?:forward|预测)[)）]?|预测市盈率", "pe_forward", 0),
    (r"市净率|市销率|(?<![A-Za-z])(?:P/?B|P/?S|PEG|EV/EBITDA)(?![A-Za-z])|price[- ]to[- ]book", "other", 0),
    (r"市盈率|(?<![A-Za-z])(?:P/E|PE)(?![A-Za-z/])|price[- ]to[- ]earnings", "pe_ttm", 1),
    # --- other figures a filing prints beside these (each ends the previous label's reach)
    (r"净息差|不良贷款率|不良率|拨备覆盖率|拨贷比|资本充足率|核心一级资本充足率|一级资本充足率|资产负债率"
     r"|(?:销售|管理|研发|财务|期间|整体)?费用率|内含价值|新业务价值|综合成本率|(?:总|净)投资收益率|股息率|分红率"
     r"|(?:优先股|普通股)?股息(?!率)|永续债利息|现金红利|分红(?!率)|未分配利润"
     r"|总资产|净资产|总负债|货币资金|市值|总市值|目标价|股价|收盘价|营运资本|存货|应收账款|合同负债|预收款项",
     "other", 0),
]  # fmt: skip
_WRAPPED = {"扣除非经常性损益": "\n?".join("扣除非经常性损益"), "非经常性损益": "\n?".join("非经常性损益")}
"""The long words a PDF's layout wraps inside (`扣除非经常\n性损益`): matched across one line break."""


def _unwrapped(pattern: str) -> str:
    for word, wrapped in _WRAPPED.items():
        pattern = pattern.replace(word, wrapped)
    return pattern


_LABELS = [(_unwrapped(p), metric, rank) for p, metric, rank in _LABELS]
LABEL_RE = re.compile("|".join(f"(?P<l{i}>{p})" for i, (p, _, _) in enumerate(_LABELS)), re.IGNORECASE)
_LABEL_OF = {f"l{i}": (metric, rank) for i, (_, metric, rank) in enumerate(_LABELS)}

TABLE_ONLY = frozenset({"operating_cost"})
"""Metrics read only from a table row (a derived gross margin needs the 利润表's 营业成本)."""
_COST_RE = re.compile(r"^(?:[其减]中?[:：]?\s?)?营业成本$")


_JOIN_RE = re.compile(r"\s?[(（]?\s?$")


@dataclass(frozen=True)
class Label:
    """A label printed in the text: where, which metric (or `other`), how strong, its text."""

    start: int
    end: int
    metric: str
    rank: int
    text: str


def find_labels(folded: str) -> list[Label]:
    """Every label in the folded text, in order (each position's longest, most specific one)."""
    found: list[Label] = []
    for m in LABEL_RE.finditer(folded):
        metric, rank = _LABEL_OF[m.lastgroup or ""]
        label = Label(m.start(), m.end(), metric, rank, m.group(0))
        prev = found[-1] if found else None
        if prev is not None and prev.metric == metric and _JOIN_RE.match(folded, prev.end, label.start):
            # `加权平均净资产收益率（ROAE）`: one label, printed twice
            label = Label(prev.start, label.end, metric, min(prev.rank, rank), folded[prev.start : label.end])
            found[-1] = label
            continue
        found.append(label)
    return found


def table_label(cell: str) -> tuple[str, int, str] | None:
    """(metric, rank, label text) of a table row's label cell, or None.

    The cell is compacted first (a PDF breaks `归属于上市公司股东的 净利润` across lines) and read by the
    first label in it; a row that names another figure first (`利润总额`, `扣除非经常性损益后的…`) is that
    figure's. `营业成本` is kept (metric `operating_cost`) for the derived gross margin.
    """
    text = re.sub(r"(?<=[^\x00-\x7f])\s+|\s+(?=[^\x00-\x7f])", "", cell.strip())
    text = re.sub(
        r"^[一二三四五六七八九十]+[、.．]\s?|^[(（]?[0-9一二三四五六七八九十]+[)）.．、]\s?", "", text
    )
    if _COST_RE.match(re.sub(r"[(（][^)）]*[)）]", "", text)):
        return "operating_cost", 0, text
    m = LABEL_RE.search(text)
    if m is None or m.start() > 4:
        return None
    metric, rank = _LABEL_OF[m.lastgroup or ""]
    if metric == "other":
        return None
    return metric, rank, m.group(0)
