// calib/rtl/collector_unit.v -- operand storage of one LOOG collector unit:
// O operands x T threads x 32 bits (LOOG-Vortex), each operand written whole
// when its register-file bank read returns, all read together at dispatch.
module collector_unit #(parameter T = 8, parameter O = 3) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire                 alloc,
    input  wire                 wen,
    input  wire [1:0]           wop,
    input  wire [T*32-1:0]      wdata,
    output wire [O*T*32-1:0]    operands,
    output wire                 full
);
    reg [T*32-1:0] opnd [0:O-1];
    reg [O-1:0]    have;
    integer i;
    always @(posedge clk) begin
        if (rst || alloc) have <= {O{1'b0}};
        else if (wen) begin
            for (i = 0; i < O; i = i + 1)
                if (wop == i) begin
                    opnd[i] <= wdata;
                    have[i] <= 1'b1;
                end
        end
    end
    genvar g;
    generate for (g = 0; g < O; g = g + 1) begin : o
        assign operands[g*T*32 +: T*32] = opnd[g];
    end endgenerate
    assign full = &have;
endmodule
